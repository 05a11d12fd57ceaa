#include "resume_option.h"

#include <algorithm>

#include "canasta/input_error.h"

namespace canasta::cli {

bool resumed(const CLI::App& sub, const std::string& path, int threads, int& exit_code,
             const std::function<int(const std::string&, std::optional<int>)>& resume,
             const std::vector<std::string>& also) {
  if (path.empty()) return false;
  std::string allowed = "--threads";
  for (const std::string& name : also) allowed += (&name == &also.back() ? " and " : ", ") + name;
  for (const CLI::Option* opt : sub.get_options()) {
    const std::string& name = opt->get_name();
    if (opt->count() > 0 && name != "--resume" && name != "--threads" &&
        std::find(also.begin(), also.end(), name) == also.end())
      throw InputError{"--resume takes no other option than " + allowed + " (not " + name + ")"};
  }
  const bool given = sub.get_option("--threads")->count() > 0;
  exit_code = resume(path, given ? std::optional<int>(threads) : std::nullopt);
  return true;
}

}  // namespace canasta::cli
