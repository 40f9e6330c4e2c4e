// Writing a file so that nobody ever sees half of it.
//
// AtomicFile writes to a temporary file in the same directory as the target
// (so the same file system) and renames it over the target in commit(). A
// reader that has the old file open or mapped keeps the old inode (no SIGBUS
// when a .ngr is regenerated under a running job); a crash, an exception or a
// signal leaves the old file untouched and no partial file under the final
// name. Two writers to one path each write their own temporary; the last
// rename wins and the file is always one complete version.
//
// Targets that cannot be renamed over (a pipe, a terminal, /dev/stdout,
// anything under /dev or /proc) are written in place: the data goes to a
// temporary file under $TMPDIR first (writers may seek and map it) and is
// copied to the target by commit().
//
// Temporary files are listed in a fixed, signal-safe registry; the first
// AtomicFile installs SIGINT/SIGTERM/SIGHUP handlers (only where the
// disposition is still the default, so Python's own SIGINT handling is left
// alone) that remove the listed files and then die of the same signal.
#pragma once

#include <string>

namespace numagraph {

class AtomicFile {
 public:
  // Creates the temporary file (empty). Throws IoError when the directory is
  // not writable.
  explicit AtomicFile(const std::string& path);
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The name the caller gave.
  const std::string& path() const { return path_; }
  // Where the data goes until commit(): open it with fopen(temp_path(), "wb")
  // or map it; it exists and is empty when the constructor returns.
  const std::string& temp_path() const { return temp_; }
  // Flushes the temporary file to disk and renames it over the target (or
  // copies it into a non-regular target). Throws IoError on failure, and the
  // temporary is removed.
  void commit();

  // Installs the signal cleanup now (the first AtomicFile does otherwise),
  // so that a handler installed later can chain to it (profile/prefetchers).
  static void install_signal_handlers();

 private:
  void remove_temp() noexcept;
  std::string path_;    // as given
  std::string target_;  // where the rename goes (symbolic links followed)
  std::string temp_;
  bool in_place_ = false;  // target is not a regular file: copy, do not rename
  bool committed_ = false;
  int slot_ = -1;  // index in the signal-safe registry, -1 when it was full
};

// True when `a` and `b` name the same existing file (same device and inode).
bool same_file(const std::string& a, const std::string& b);

// Throws UsageError (exit 2) when `output` is the same file as `input`:
// writing a result over the graph it was computed from destroys the graph.
// `flag` names the option in the message ("--output", "OUT").
void refuse_output_onto_input(const std::string& output, const std::string& input, const std::string& flag);

}  // namespace numagraph
