#include "numagraph/execution.hpp"

#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph {

EngineChoice parse_engine(std::string_view name) {
  if (name == "auto") return EngineChoice::kAuto;
  if (name == "flat") return EngineChoice::kFlat;
  if (name == "numa") return EngineChoice::kNuma;
  throw UsageError("engine must be 'auto', 'flat' or 'numa' (got '" + std::string(name) + "')");
}

const char* to_string(EngineChoice e) {
  return e == EngineChoice::kAuto ? "auto" : e == EngineChoice::kFlat ? "flat" : "numa";
}

MachineView MachineView::current() {
  MachineView m;
  const numa::Runtime& rt = numa::Runtime::get();
  if (rt.configured()) {
    m.nodes = rt.topology().num_nodes();
    m.thread_node = rt.thread_node();
    m.distance = rt.topology().distance;
  } else {
    m.thread_node.assign(static_cast<std::size_t>(parallel::max_threads()), 0);
    m.distance = {{10}};
  }
  m.process_cpus = rt.process_cpu_count();
  m.generation = rt.generation();
  return m;
}

}  // namespace numagraph
