// TEMPORARY stub, replaced by the readers/writers.
#include "numagraph/graph/io.hpp"
#include "numagraph/util/error.hpp"
namespace numagraph {
Format parse_format(const std::string& name) { throw UsageError("unknown format " + name); }
std::string format_name(Format) { return "?"; }
Format format_from_extension(const std::string&) { return Format::kAuto; }
EdgeList read_edge_list(const std::string& path, const ReadOptions&) { throw IoError(path); }
AnyGraph load_graph(const std::string& path, const ReadOptions&, const BuildOptions&, BuildReport*) { throw IoError(path); }
void write_graph(const AnyGraph&, const std::string& path, Format) { throw IoError(path); }
}
