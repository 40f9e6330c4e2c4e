#include "numagraph/profile/profile_file.hpp"

#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>

#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/atomic_file.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::profile {

namespace {

void put_number(std::string& s, double v) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  char buf[32];
  // Integral values (counts) exactly; others to 10 significant digits.
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.10g", v);
  s += buf;
}

void put_time(std::string& s, double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", t);
  s += buf;
}

void write_text(const std::string& path, const std::string& text) {
  AtomicFile file(path);
  std::FILE* f = std::fopen(file.temp_path().c_str(), "wb");
  if (!f) throw IoError("cannot write " + path + ": cannot open its temporary file " + file.temp_path());
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) throw IoError("cannot write " + path + " (disk full?)");
  file.commit();
}

std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string s = "\"";
  for (char c : v) s += c == '"' ? std::string("\"\"") : std::string(1, c);
  return s + "\"";
}

}  // namespace

Record profile_metadata(const std::string& command) {
  Record r;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  char date[32] = {};
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  r.set("command", command).set("host", host).set("date", date);
  const numa::Runtime& rt = numa::Runtime::get();
  if (rt.configured()) {
    r.set("threads", rt.threads())
        .set("topology", rt.topology().summary())
        .set("nodes", rt.topology().num_nodes())
        .set("bind", numa::to_string(rt.config().bind))
        .set("placement", numa::to_string(rt.config().placement))
        .set("pages", numa::to_string(rt.config().pages));
  } else {
    r.set("threads", omp_get_max_threads()).set("topology", "machine (runtime not configured)");
  }
  r.set("page_size", static_cast<std::int64_t>(sysconf(_SC_PAGESIZE)));
  return r;
}

std::string profile_json(const Profile& p, const Record& metadata) {
  Record meta = metadata;
  meta.set("interval_ms", p.interval_ms)
      .set("duration_s", p.duration())
      .set("samples", static_cast<std::int64_t>(p.samples()))
      .set("sampler_cpu_s", p.sampler_cpu_s);
  const std::size_t m = p.metrics.size();
  std::string s;
  s.reserve(256 + p.values.size() * 8 + p.t.size() * 12);
  s += "{\"format\": \"numagraph-profile\", \"version\": 1,\n\"metadata\": " + meta.json() + ",\n\"metrics\": [";
  for (std::size_t j = 0; j < m; ++j) {
    const Metric& x = p.metrics[j];
    Record r;
    r.set("name", x.name).set("source", p.metric_source[j]).set("unit", x.unit).set("kind", to_string(x.kind));
    if (!x.note.empty()) r.set("note", x.note);
    s += (j ? ",\n  " : "\n  ") + r.json();
  }
  s += "],\n\"unavailable\": [";
  for (std::size_t k = 0; k < p.unavailable.size(); ++k) {
    const Unavailable& u = p.unavailable[k];
    Record r;
    r.set("source", u.source).set("what", u.what).set("reason", u.reason);
    s += (k ? ",\n  " : "\n  ") + r.json();
  }
  const std::vector<int> phase_of = p.sample_phases();
  s += "],\n\"samples\": {\n  \"t\": [";
  for (std::size_t i = 0; i < p.samples(); ++i) {
    if (i) s += ',';
    put_time(s, p.t[i]);
  }
  s += "],\n  \"phase\": [";
  for (std::size_t i = 0; i < p.samples(); ++i) {
    if (i) s += ',';
    s += std::to_string(phase_of[i]);
  }
  s += "]";
  for (std::size_t j = 0; j < m; ++j) {
    s += ",\n  " + Record::quote(p.metrics[j].name) + ": [";
    for (std::size_t i = 0; i < p.samples(); ++i) {
      if (i) s += ',';
      put_number(s, p.value(i, j));
    }
    s += "]";
  }
  s += "},\n\"phases\": [";
  for (std::size_t q = 0; q < p.phases.size(); ++q) {
    const Phase& ph = p.phases[q];
    const std::vector<double> totals = p.phase_totals(q);
    std::size_t n = 0;
    for (int x : phase_of) n += x == static_cast<int>(q);
    s += (q ? ",\n  {" : "\n  {") + std::string("\"name\": ") + Record::quote(ph.name) +
         ", \"parent\": " + std::to_string(ph.parent) + ", \"depth\": " + std::to_string(ph.depth) + ", \"begin\": ";
    put_time(s, ph.begin);
    s += ", \"end\": ";
    put_time(s, ph.end);
    s += ", \"samples\": " + std::to_string(n);
    for (const MetricKind kind : {MetricKind::kCounter, MetricKind::kGauge}) {
      s += kind == MetricKind::kCounter ? ", \"totals\": {" : ", \"means\": {";
      bool first = true;
      for (std::size_t j = 0; j < m; ++j) {
        if (p.metrics[j].kind != kind) continue;
        s += (first ? "" : ", ") + Record::quote(p.metrics[j].name) + ": ";
        put_number(s, totals[j]);
        first = false;
      }
      s += "}";
    }
    s += "}";
  }
  s += "]}\n";
  return s;
}

void write_profile_json(const std::string& path, const Profile& p, const Record& metadata) {
  write_text(path, profile_json(p, metadata));
}

std::string profile_csv(const Profile& p) {
  std::string s = "t[s],phase";
  for (const auto& x : p.metrics) {
    s += ',';
    s += csv_field(x.name + "[" + x.unit + "]");
  }
  s += "\n";
  const std::vector<int> phase_of = p.sample_phases();
  for (std::size_t i = 0; i < p.samples(); ++i) {
    put_time(s, p.t[i]);
    s += ',';
    s += csv_field(p.phases[static_cast<std::size_t>(phase_of[i])].name);
    for (std::size_t j = 0; j < p.metrics.size(); ++j) {
      s += ',';
      const double v = p.value(i, j);
      if (std::isfinite(v)) put_number(s, v);  // empty field: not read
    }
    s += "\n";
  }
  return s;
}

void write_profile_csv(const std::string& path, const Profile& p) { write_text(path, profile_csv(p)); }

}  // namespace numagraph::profile
