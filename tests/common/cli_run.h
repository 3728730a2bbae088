// Runs the `wavefront` binary of this build (WF_BINARY) with a shell-quoted argument
// string and returns its exit code and stderr, for the command-line tests.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace wf::test {

struct CliRun {
    int exit_code = -1;  // 1000 + signal when it crashed
    std::string stderr_text;
};

// `prefix` goes before the command ("cd DIR && "); stderr goes through `stderr_file`.
inline CliRun run_wavefront_cli(const std::string& args, const std::string& stderr_file,
                                const std::string& prefix = "") {
    const std::string cmd = prefix + "'" + std::string(WF_BINARY) + "' " + args + " >/dev/null 2>'" + stderr_file + "'";
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    std::ifstream f(stderr_file);
    std::stringstream s;
    s << f.rdbuf();
    r.stderr_text = s.str();
    return r;
}

}  // namespace wf::test
