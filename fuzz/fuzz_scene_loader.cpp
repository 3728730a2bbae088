// libFuzzer target: the JSON scene loader. Any input must either load or be refused with
// a SceneError whose message is one line naming the source; a crash, a sanitizer report,
// a hang or another exception type is a bug. Seeds: fuzz/corpus/scene_loader/.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/scene_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        // A folder that does not exist: file references (meshes) fail cleanly instead of
        // reading whatever the fuzzer names.
        wf::parse_scene(text, "fuzz.json", "/nonexistent-wavefront-fuzz-dir");
    } catch (const wf::SceneError& e) {
        const std::string message = e.what();
        if (message.rfind("fuzz.json", 0) != 0 || message.find('\n') != std::string::npos) std::abort();
    }
    return 0;
}
