// GPU tests skip (with a message) when the build has no CUDA backend or the
// machine has no device; on an H100/H200 they run the same checks as on the CPU.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "app/render.h"

#define WF_REQUIRE_CUDA_DEVICE()                                              \
    do {                                                                      \
        std::string why_not;                                                  \
        if (!::wf::cuda_backend_available(&why_not)) GTEST_SKIP() << why_not; \
    } while (0)
