// One exception hierarchy for the whole library. Every error message says what
// went wrong and what to do; input errors also say where (file and line).
// The CLI maps each type to a documented exit code; Python maps them to
// numagraph.Error subclasses.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace numagraph {

// Exit codes used by the CLI (documented in README "Exit codes").
enum class ExitCode : int {
  kOk = 0,
  kNoResult = 1,      // the question has no answer (numagraph path: the target is unreachable)
  kUsage = 2,         // bad flags or arguments
  kInput = 3,         // malformed or inconsistent input file
  kIo = 4,            // file cannot be opened, read or written
  kVerifyFailed = 5,  // a kernel result failed its verifier
  kResource = 6,      // out of memory or another system resource
  kInternal = 70,     // a bug in numagraph
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  virtual ExitCode exit_code() const { return ExitCode::kInternal; }
};

// A flag or function argument that makes no sense (bad id, negative delta...).
class UsageError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kUsage; }
};

// Malformed or inconsistent input data. `line` is 1-based; 0 means "no line"
// (binary files, whole-file checks).
class InputError : public Error {
 public:
  InputError(const std::string& file, std::int64_t line, const std::string& message)
      : Error(format(file, line, message)), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  std::int64_t line() const { return line_; }
  ExitCode exit_code() const override { return ExitCode::kInput; }

 private:
  static std::string format(const std::string& file, std::int64_t line, const std::string& msg) {
    std::string where = file.empty() ? std::string("<input>") : file;
    if (line > 0) where.append(":").append(std::to_string(line));
    return where.append(": ").append(msg);
  }
  std::string file_;
  std::int64_t line_;
};

// The operating system refused an operation on a path (open, read, write, mmap).
class IoError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kIo; }
};

// A verifier rejected a kernel result.
class VerifyError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kVerifyFailed; }
};

// A well-posed question without an answer: no path joins the two vertices.
class NoResultError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kNoResult; }
};

// Out of memory, too many threads, no such NUMA node...
class ResourceError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kResource; }
};

}  // namespace numagraph
