#pragma once
namespace numagraph::cli {
inline constexpr const char* kVersion = "numagraph 0.1.0";
}
