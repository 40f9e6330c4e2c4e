// The hardware prefetchers, on or off for the run (the Galois study turns
// them off to see what they hide): Intel's MSR 0x1A4 (bits 0-3: L2 stream,
// L2 adjacent line, L1 stream, L1 IP-stride; a set bit disables) written
// through /dev/cpu/N/msr on every CPU. The old values are written back when
// the Prefetchers object is destroyed, at exit, and on SIGINT, SIGTERM and
// SIGHUP (the handler then passes the signal on to the one it replaced).
//
// Where that is impossible (not an Intel CPU, no msr module, no permission,
// a VM that refuses the register) nothing is changed and the reason is kept:
// the run goes on with the prefetchers as they were.
#pragma once

#include <string>

namespace numagraph::profile {

class Prefetchers {
 public:
  // on: clear bits 0-3 on every CPU; off: set them. `dev_root` is where the
  // cpu/N/msr files are ("/dev" unless a test points elsewhere).
  Prefetchers(bool on, const std::string& dev_root = "/dev");
  ~Prefetchers();  // writes the old values back
  Prefetchers(const Prefetchers&) = delete;
  Prefetchers& operator=(const Prefetchers&) = delete;

  bool applied() const { return reason_.empty(); }
  // Empty when applied; else what is missing or refused and what to do.
  const std::string& reason() const { return reason_; }
  // For records: "on" / "off", or "unavailable: <reason>".
  std::string report() const;

 private:
  bool on_;
  std::string reason_;
};

}  // namespace numagraph::profile
