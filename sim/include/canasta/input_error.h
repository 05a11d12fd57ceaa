// An error in what the user gave (an option, a file, a run folder): one
// line, written for them. The program prints it and ends with exit code 2;
// the Python module raises ValueError with it.
#pragma once

#include <string>

namespace canasta {

struct InputError {
  std::string message;
};

}  // namespace canasta
