// The library's messages name the CLI's flags (--engine flat, -s); Python
// users pass arguments instead, so every message that reaches Python (errors,
// notices) is rewritten here into the Python spelling.
#include <cctype>
#include <regex>
#include <string>

#include "common.hpp"

namespace numagraph::py {

namespace {

struct Rewrite {
  std::regex pattern;
  const char* replacement;
};

// Whole phrases first (their meaning differs from a flag-by-flag rewrite),
// then flags with a value, then bare flags.
const Rewrite* rewrites(std::size_t& count) {
  static const Rewrite kRewrites[] = {
      // Notes that name both spellings, "(--no-header, Python header=False)":
      // keep the Python one.
      {std::regex(R"((-[a-z]/)?--[a-z][a-z-]*( [^ ,()]+)?, Python )"), ""},
      {std::regex(R"(load it with -s \(--symmetrize\))"), "build it undirected (directed=False)"},
      {std::regex(R"(load (it )?without --keep-duplicates)"), "load it with dedupe=True"},
      {std::regex(R"(load (it )?without --keep-self-loops)"), "load it with drop_self_loops=True"},
      {std::regex(R"(--threads)"), "numagraph.config(threads=...)"},
      {std::regex(R"(--format\b)"), "format="},
      {std::regex(R"(--(relabel|engine|variant|bind|pages|placement) ([a-z][a-z0-9-]*))"), "$1='$2'"},
  };
  count = std::size(kRewrites);
  return kRewrites;
}

}  // namespace

std::string python_voice(std::string message) {
  std::size_t count = 0;
  const Rewrite* r = rewrites(count);
  for (std::size_t i = 0; i < count; ++i) message = std::regex_replace(message, r[i].pattern, r[i].replacement);
  // Any other --flag-name becomes the argument name flag_name.
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size(); ++i) {
    const bool flag = message.compare(i, 2, "--") == 0 && i + 2 < message.size() &&
                      std::islower(static_cast<unsigned char>(message[i + 2])) &&
                      (i == 0 || message[i - 1] == ' ' || message[i - 1] == '(');
    if (!flag) {
      out += message[i];
      continue;
    }
    for (i += 2; i < message.size() && (std::isalnum(static_cast<unsigned char>(message[i])) || message[i] == '-'); ++i)
      out += message[i] == '-' ? '_' : message[i];
    --i;
  }
  return out;
}

}  // namespace numagraph::py
