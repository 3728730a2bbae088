// Where the repository's scenes and test data are. The environment variable
// WF_SOURCE_DIR wins (a build carried to another machine, e.g. the GPU host);
// otherwise the source folder CMake compiled in.
#pragma once

#include <cstdlib>
#include <string>

namespace wf::test {

inline std::string source_dir() {
    if (const char* env = std::getenv("WF_SOURCE_DIR"); env && *env) return env;
    return WF_SOURCE_DIR;
}

}  // namespace wf::test
