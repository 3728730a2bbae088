// The GPU builder's top pass (accel/bvh_top_sah.cuh) alone, on tops made to order:
// random, NaN and coincident boxes, chains of one-primitive subtrees, subtrees so
// tall that only middle splits keep the tree within the traversal stack, and the
// cases the pass must leave as they are (too many subtrees, too tall to fit).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "accel/bvh_build.h"
#include "tests/gpu/gpu_test_support.h"

#if WF_HAVE_CUDA
#include "tests/gpu/bvh_top_sah_kernel.h"
#endif

namespace wf {
namespace {

#if !WF_HAVE_CUDA
TEST(GpuBvhTopPass, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else
using test::TopTestMeta;
using test::TopTestNode;

constexpr uint32_t kN = 1u << 20;  // primitives: the pass's cut is max(4096, n / 256) = 4096
constexpr uint32_t kCut = 4096;
constexpr uint32_t kRightBit = 0x80000000u, kLeafBit = 0x80000000u, kNone = 0xffffffffu;

enum class Boxes { random, equal, some_nan };

struct TopCase {
    const char* name;
    uint32_t items;
    bool chain;        // one-primitive items down a chain, but the bottom two
    uint32_t height;   // of item 1 (the others: 1 to 4; one-primitive items 0)
    Boxes boxes;
    bool rebuilt;      // else the pass must leave the tree as it is
};

// A binary tree over `items` subtrees of at most kCut primitives (their nodes are
// leaves here: the pass reads only their boxes and meta) whose top nodes hold more.
struct MadeTop {
    std::vector<TopTestNode> nodes = std::vector<TopTestNode>(2 * kN - 1);
    std::vector<TopTestMeta> meta = std::vector<TopTestMeta>(2 * kN - 1);
    std::vector<uint32_t> parent = std::vector<uint32_t>(2 * kN - 1, 0xdeadbeefu);
    std::vector<uint32_t> items, old;
    uint32_t root = 0;
};

MadeTop make_top(const TopCase& c) {
    MadeTop t;
    std::mt19937 rng(c.items * 7 + c.height);
    std::uniform_real_distribution<float> u(-100.0f, 100.0f);
    uint32_t next_interior = kN + 5, next_prim = 3;
    for (uint32_t i = 0; i < c.items; ++i) {
        const bool prim = c.chain && i >= 2;
        const uint32_t id = prim ? next_prim++ : next_interior++;
        t.items.push_back(id);
        float x = u(rng), y = u(rng), z = u(rng);
        const float r = 1.0f + (u(rng) + 100.0f) / 20.0f;
        if (c.boxes == Boxes::equal) x = y = z = 0.0f;
        t.nodes[id] = TopTestNode{{x - r, y - r, z - r}, 0, {x + r, y + r, z + r}, 0};
        if (c.boxes == Boxes::some_nan && i % 7 == 3) t.nodes[id].lo[1] = t.nodes[id].hi[0] = std::nanf("");
        const uint32_t count = prim ? 1u : (c.chain ? kCut : kCut / 2 + 1 + rng() % (kCut / 2));
        const uint32_t height = prim ? 0u : (i == 1 ? c.height : rng() % 4 + 1);
        t.meta[id] = TopTestMeta{1.0f, count, height, 1};
    }
    std::function<uint32_t(uint32_t, uint32_t)> make = [&](uint32_t b, uint32_t e) -> uint32_t {
        if (e - b == 1) return t.items[b];
        const uint32_t id = next_interior++;
        t.old.push_back(id);
        const uint32_t s = c.chain ? (e - b == 2 ? b + 1 : e - 1) : b + 1 + rng() % (e - b - 1);
        uint32_t l = make(b, s), r = make(s, e);
        if (c.chain) std::swap(l, r);
        t.nodes[id] = TopTestNode{{-1, -1, -1}, l, {1, 1, 1}, r};  // boxes the pass must replace
        t.meta[id] = TopTestMeta{1.0f, (t.meta[l].count & ~kLeafBit) + (t.meta[r].count & ~kLeafBit), 99, 2};
        t.parent[l] = id;
        t.parent[r] = id | kRightBit;
        return id;
    };
    t.root = make(0, c.items);
    t.parent[t.root] = kNone;
    return t;
}

// Checks the rebuilt tree below the root: every old id and every item used once,
// parent links, counts, heights and boxes; returns the deepest item's leaf depth.
uint32_t check_rebuilt(const MadeTop& before, const MadeTop& after) {
    std::map<uint32_t, int> seen_old, seen_item;
    for (uint32_t o : before.old) seen_old[o] = 0;
    for (uint32_t i : before.items) seen_item[i] = 0;
    uint32_t deepest = 0;
    std::function<uint32_t(uint32_t, uint32_t, uint32_t)> walk = [&](uint32_t x, uint32_t link, uint32_t depth) {
        EXPECT_EQ(after.parent[x], link) << "node " << x;
        if (seen_item.count(x)) {
            ++seen_item[x];
            deepest = std::max(deepest, depth + before.meta[x].height);
            return before.meta[x].count;
        }
        EXPECT_EQ(seen_old.count(x), 1u) << "node " << x << " is neither an old top node nor an item";
        if (!seen_old.count(x) || seen_old[x]++ > 0 || depth > 2 * kN) return 0u;
        const TopTestNode& n = after.nodes[x];
        const uint32_t count = walk(n.left, x, depth + 1) + walk(n.right, x | kRightBit, depth + 1);
        const TopTestMeta& m = after.meta[x];
        EXPECT_EQ(m.count & ~kLeafBit, count) << "node " << x;
        const uint32_t below = std::max(after.meta[n.left].height, after.meta[n.right].height);
        EXPECT_EQ(m.height, (m.count & kLeafBit) ? 0u : 1u + below) << "node " << x;
        for (int k = 0; k < 3; ++k) {  // exactly the union of the children's boxes (NaN ignored, as fminf does)
            const float lo = std::fmin(after.nodes[n.left].lo[k], after.nodes[n.right].lo[k]);
            const float hi = std::fmax(after.nodes[n.left].hi[k], after.nodes[n.right].hi[k]);
            EXPECT_TRUE(n.lo[k] == lo || (std::isnan(n.lo[k]) && std::isnan(lo))) << "node " << x << " axis " << k;
            EXPECT_TRUE(n.hi[k] == hi || (std::isnan(n.hi[k]) && std::isnan(hi))) << "node " << x << " axis " << k;
        }
        return count;
    };
    walk(before.root, kNone, 0);
    for (auto& [id, uses] : seen_old) EXPECT_EQ(uses, 1) << "old top node " << id;
    for (auto& [id, uses] : seen_item) EXPECT_EQ(uses, 1) << "item " << id;
    return deepest;
}

TEST(GpuBvhTopPass, RebuildsTopsMadeToOrderAndLeavesTheOnesItMust) {
    WF_REQUIRE_CUDA_DEVICE();
    const TopCase cases[] = {
        {"random, 300 items", 300, false, 0, Boxes::random, true},
        {"1024 items, some NaN boxes", 1024, false, 0, Boxes::some_nan, true},
        {"1024 items, one centroid", 1024, false, 0, Boxes::equal, true},
        {"1025 items: too many", 1025, false, 0, Boxes::random, false},
        {"two items", 2, false, 0, Boxes::random, true},
        {"three items", 3, false, 0, Boxes::random, true},
        {"five items", 5, false, 0, Boxes::random, true},
        {"chain of 513", 513, true, 3, Boxes::random, true},
        {"chain of 600, an item of height 53: middle splits", 600, true, 53, Boxes::random, true},
        {"chain of 600, an item of height 54: too tall", 600, true, 54, Boxes::random, false},
        {"chain of 1000, one centroid, height 53", 1000, true, 53, Boxes::equal, true},
        {"chain of 700, NaN boxes, height 50", 700, true, 50, Boxes::some_nan, true},
        {"random 700, an item of height 53: middle splits", 700, false, 53, Boxes::random, true},
    };
    for (const TopCase& c : cases) {
        SCOPED_TRACE(c.name);
        const MadeTop before = make_top(c);
        MadeTop first = before, second = before;
        test::run_top_pass(kN, before.root, first.nodes, first.meta, first.parent);
        test::run_top_pass(kN, before.root, second.nodes, second.meta, second.parent);
        EXPECT_EQ(std::memcmp(first.nodes.data(), second.nodes.data(), first.nodes.size() * sizeof(TopTestNode)), 0)
            << "two runs made different trees";
        const bool changed =
            std::memcmp(first.nodes.data(), before.nodes.data(), before.nodes.size() * sizeof(TopTestNode)) != 0;
        ASSERT_EQ(changed, c.rebuilt);
        if (!changed) continue;
        EXPECT_EQ(first.parent[before.root], kNone) << "the root keeps its id and has no parent";
        const uint32_t deepest = check_rebuilt(before, first);
        EXPECT_LE(deepest, kBvhMaxDepth) << "the rebuilt top pushed leaves below the traversal stack";
        EXPECT_LE(first.meta[before.root].height, deepest);
    }
}
#endif  // WF_HAVE_CUDA

}  // namespace
}  // namespace wf
