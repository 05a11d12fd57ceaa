// libFuzzer target: a line of a record file. A line the reader takes writes
// back to a line it takes again, identical; its agents are text a terminal
// and a page show as it is (no control character, no markup); replaying it
// must not crash. Seeds: tests/fuzz/corpus/record and tests/hostile.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "canasta/params.h"
#include "canasta/record.h"
#include "canasta/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  canasta::DealRecord rec, again;
  std::string error;
  if (!canasta::parse_record(line, rec, error)) return 0;
  const std::string written = canasta::to_json_line(rec);
  if (!canasta::parse_record(written, again, error) || canasta::to_json_line(again) != written) std::abort();
  for (const std::string& a : rec.agents)
    if (canasta::printable(a, canasta::kMaxAgentText) != a || a.find_first_of("<>&\"' ") != std::string::npos)
      std::abort();
  canasta::RecordChecker checker;
  checker.check(rec, error);
  return 0;
}
