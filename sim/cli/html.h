// Text from files in an HTML page. The replay page carries its data as JSON
// in a script block of type application/json, which the browser never runs,
// and builds its DOM from that data with text nodes only; its one script is
// the only one the page's content security policy lets run (by its SHA-256
// digest), so that even markup slipped into the page could run nothing.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace canasta::cli {

// JSON text made safe inside <script type="application/json">: '<', '>'
// and '&' become \u003c, \u003e and \u0026 (the same JSON value), so no
// "</script>" or "<!--" can end or bend the block.
std::string json_for_script(std::string_view json);

// The SHA-256 digest of `text` (FIPS 180-4), and in base64 as a content
// security policy names a script: 'sha256-BASE64'.
std::array<uint8_t, 32> sha256(std::string_view text);
std::string base64(const uint8_t* bytes, size_t n);
std::string csp_script_source(std::string_view script);

}  // namespace canasta::cli
