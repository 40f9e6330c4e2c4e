#include "parse_errors.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace numagraph::cli {

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The closest of `names` to `word`, when close enough to be a typo.
std::string closest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& n : names) {
    const std::size_t d = edit_distance(word, n);
    if (d < best_distance) {
      best = n;
      best_distance = d;
    }
  }
  return best;
}

// Every flag name of `app` ("--name" and "-n" forms).
std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// " (did you mean 'X'?)" when one of `names` is close to `word`, else "".
// One-letter flags ("-x") get none: every other one-letter flag is as close.
std::string suggestion(const std::string& word, const std::vector<std::string>& names) {
  if (word.size() <= 2) return {};
  const std::string near = closest(word, names);
  return near.empty() ? std::string() : " (did you mean '" + near + "'?)";
}

// What went wrong with the words CLI11 left over: an unknown flag (with the
// closest known one) or a second positional argument.
std::string explain_extras(const CLI::App& command) {
  for (const std::string& extra : command.remaining()) {
    if (extra.empty()) continue;
    if (extra[0] != '-') return "unexpected argument '" + extra + "' (one more than the command takes)";
    const std::string word = extra.substr(0, extra.find('='));
    return "unknown flag '" + word + "'" + suggestion(word, flag_names(command));
  }
  return {};
}

// A long flag written with one dash ("-iterations 5") reaches CLI11 as "-i"
// followed by "terations": name the flag that was meant.
std::string single_dash_long_flag(const CLI::App& command, int argc, char** argv) {
  const std::vector<std::string> names = flag_names(command);
  for (int i = 2; i < argc; ++i) {
    const std::string word = std::string(argv[i]).substr(0, std::string(argv[i]).find('='));
    if (word.size() > 2 && word[0] == '-' && word[1] != '-' &&
        std::find(names.begin(), names.end(), "-" + word) != names.end())
      return " ('" + word + "': long flags take two dashes, '-" + word + "')";
  }
  return {};
}

// For "--flag: VALUE not in {a,b,c}" (CLI11's IsMember), the closest member.
std::string closest_member(const std::string& message) {
  const std::size_t colon = message.find(": "), in = message.find(" not in {");
  const std::size_t close = message.rfind('}');
  const std::size_t none = std::string::npos;
  if (colon == none || in == none || close == none || in < colon) return {};
  const std::string value = message.substr(colon + 2, in - colon - 2);
  std::vector<std::string> members;
  std::string list = message.substr(in + 9, close - in - 9);
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    members.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return suggestion(value, members);
}

}  // namespace

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv,
                                const std::string& tool) {
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : app.get_subcommands()) command = sub;
  std::string message = e.what();
  if (!command && argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names.push_back(sub->get_name());
      for (const auto& alias : sub->get_aliases()) names.push_back(alias);
    }
    message = "unknown command '" + std::string(argv[1]) + "'" + suggestion(argv[1], names);
  } else if (!command && argc > 1) {
    const std::string word = std::string(argv[1]).substr(0, std::string(argv[1]).find('='));
    message = "unknown flag '" + word + "'" + suggestion(word, flag_names(app)) +
              " (the command comes first: " + tool + " COMMAND [FLAGS])";
  } else if (command && dynamic_cast<const CLI::ExtrasError*>(&e)) {
    if (const std::string why = explain_extras(*command); !why.empty()) message = why;
  } else if (command) {
    message += closest_member(message) + single_dash_long_flag(*command, argc, argv);
  }
  return message + "; run `" + tool + (command ? " " + command->get_name() : std::string()) + " --help` for the flags";
}


}  // namespace numagraph::cli
