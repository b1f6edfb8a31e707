// fhec runtime errors: every failure on user input (parameters, keys, files,
// modules) is reported as fhec::rt::Error with a message saying what is wrong.
#pragma once
#include <stdexcept>
#include <string>

namespace fhec::rt {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string &what) : std::runtime_error(what) {}
};

} // namespace fhec::rt
