// --resume, as sim, tournament and tune take it: the run stopped in a
// folder (or a tuning table) goes on as its command said, with the thread
// count given now and the files it may write named anew.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace canasta::cli {

// With --resume PATH given to `sub`: refuses any other option but --threads
// and those named in `also` (the files a resumed run may write, named
// anew), runs `resume` on PATH and, where --threads was given, `threads`,
// into `exit_code`, and returns true; without it returns false.
bool resumed(const CLI::App& sub, const std::string& path, int threads, int& exit_code,
             const std::function<int(const std::string&, std::optional<int>)>& resume,
             const std::vector<std::string>& also = {});

}  // namespace canasta::cli
