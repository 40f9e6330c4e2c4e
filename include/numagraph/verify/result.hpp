// What every verifier returns: pass/fail and, on failure, what is wrong
// (one sentence naming the first offending vertex or edge).
#pragma once

#include <string>

namespace numagraph::verify {

struct Result {
  bool ok = true;
  std::string message;
  static Result pass() { return {}; }
  static Result fail(std::string why) { return {false, std::move(why)}; }
};

}  // namespace numagraph::verify
