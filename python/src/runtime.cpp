// Runtime control from Python: thread count, topology (real or synthetic),
// binding, placement and page size, applied to the NUMA runtime on the
// worker thread (where the OpenMP pool that runs every kernel lives).
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>

#include <chrono>
#include <thread>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::py {

// Never destroyed: NumPy may free result arrays (and call give) during
// interpreter shutdown, after static destructors could have run.
ResultPool& result_pool() {
  static ResultPool* pool = new ResultPool;
  return *pool;
}

namespace {

// The CPUs the process may use, read at import (before any pinning).
cpu_set_t& initial_cpus() {
  static cpu_set_t set = [] {
    cpu_set_t s;
    CPU_ZERO(&s);
    sched_getaffinity(0, sizeof s, &s);
    return s;
  }();
  return set;
}

// Unpins the worker and every OpenMP pool thread it ever used. Needed
// because a later configure() reads the allowed CPUs from the worker's own
// mask, and threads created later inherit it: a config(threads=1) block
// would otherwise leave every later run on one CPU.
void unpin_all() {
  static int most_threads = 1;
  most_threads = std::max(most_threads, omp_get_max_threads());
  sched_setaffinity(0, sizeof(cpu_set_t), &initial_cpus());
#pragma omp parallel num_threads(most_threads)
  sched_setaffinity(0, sizeof(cpu_set_t), &initial_cpus());
}

void configure(int threads, const std::string& topology, const std::string& bind, bool smt, const std::string& pages,
               const std::string& placement) {
  if (threads < 0 || threads > numa::kMaxThreads)
    throw UsageError("threads must be in 0.." + std::to_string(numa::kMaxThreads) + " (0 = one per core); got " +
                     std::to_string(threads));
  numa::RuntimeConfig c;
  c.threads = threads;
  c.topology = topology;
  c.bind = numa::parse_bind(bind);
  c.smt = smt;
  c.pages = numa::parse_pages(pages);
  c.placement = numa::parse_placement(placement);
  run_job(
      [c] {
        unpin_all();
        numa::Runtime::get().configure(c);
        result_pool().clear();  // recycled arrays follow the old placement and page size
      },
      false);
}

// What is in force now, as the worker sees it.
nb::dict current() {
  int threads = 0;
  run_job([&] { threads = omp_get_max_threads(); }, false);
  nb::dict d;
  const numa::Runtime& rt = numa::Runtime::get();
  d["threads"] = threads;
  d["configured"] = rt.configured();
  if (rt.configured()) {
    d["topology"] = rt.topology().synthetic ? rt.topology().source : std::string("machine");
    d["numa_nodes"] = rt.topology().num_nodes();
    d["bind"] = numa::to_string(rt.config().bind);
    d["smt"] = rt.config().smt;
    d["pages"] = numa::to_string(rt.config().pages);
    d["placement"] = numa::to_string(rt.config().placement);
    d["thread_cpu"] = rt.thread_cpu();
  }
  return d;
}

// Per-array placement (numa/roles.hpp): the role table, parsed as the CLI's
// --place, and the placement report of the arrays the last calls made.
void set_place(const std::string& text) {
  auto table = numa::parse_place(text);
  run_job([table] { numa::set_role_placements(table); }, false);
}

nb::list placement_report() {
  std::vector<numa::ArrayReport> report;
  run_job([&] { report = numa::placement_report(); }, false);
  nb::list out;
  for (const numa::ArrayReport& r : report) {
    nb::dict d;
    d["role"] = r.role;
    d["bytes"] = r.bytes;
    d["asked"] = r.asked;
    d["obtained"] = r.obtained;
    d["pages"] = r.pages;
    d["pages_per_node"] = r.pages_per_node;
    d["sampled"] = r.sampled;
    d["not_present"] = r.not_present;
    d["arrays"] = r.arrays;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_runtime(nb::module_& m) {
  m.def("set_place", &set_place, nb::arg("text"));
  m.def("place", [] { return numa::role_placements_text(); });
  m.def("set_placement_report", [](bool on) {
    numa::set_placement_report(on);
    numa::clear_placement_report();
  }, nb::arg("on"));
  m.def("placement_report", &placement_report);
  initial_cpus();
  m.def("configure", &configure, nb::arg("threads"), nb::arg("topology"), nb::arg("bind"), nb::arg("smt"),
        nb::arg("pages"), nb::arg("placement"));
  m.def("current_config", &current);
  m.def("cancel_requested", [] { return cancel_requested(); });
  // For tests: a job that sleeps in steps, polling the cancel flag or not.
  m.def(
      "_sleep",
      [](double seconds, bool poll) {
        run_job([seconds, poll] {
          const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
          while (std::chrono::steady_clock::now() < end) {
            if (poll) throw_if_cancelled();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
        });
      },
      nb::arg("seconds"), nb::arg("poll"));
}

}  // namespace numagraph::py
