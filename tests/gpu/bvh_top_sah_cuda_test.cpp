// The GPU builder's top pass (accel/bvh_top_sah.cuh) alone, on tops made to order:
// random, NaN and coincident boxes, chains of one-primitive subtrees, subtrees so
// tall that only middle splits keep the tree within the traversal stack, and the
// cases the pass must leave as they are (too many subtrees, too tall to fit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "accel/bvh_build.h"
#include "tests/gpu/gpu_test_support.h"

#if defined(WF_HAVE_CUDA)
#include "tests/gpu/bvh_top_sah_kernel.h"
#endif

namespace wf {
namespace {

#if !defined(WF_HAVE_CUDA)
TEST(GpuBvhTopPass, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else
using test::TopTestMeta;
using test::TopTestNode;

// Build nodes: ids below kN are primitives. The pass's cut is max(4096, n / 256) = 4096;
// the items' counts only name sizes below it (their sum may exceed kN: the pass adds
// counts, it never indexes by them).
constexpr uint32_t kN = 1u << 16;
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

double half_area(const float* lo, const float* hi) {
    const double dx = double(hi[0]) - lo[0], dy = double(hi[1]) - lo[1], dz = double(hi[2]) - lo[2];
    return dx * dy + dy * dz + dz * dx;
}

// The summed half areas of the interior nodes of a balanced tree over items
// [b, e) in the order they were made (random places): what a top that ignored
// where the items lie would cost. *lo, *hi: the union of their boxes.
double areas_in_made_order(const MadeTop& t, uint32_t b, uint32_t e, float* lo, float* hi) {
    if (e - b == 1) {
        std::copy(t.nodes[t.items[b]].lo, t.nodes[t.items[b]].lo + 3, lo);
        std::copy(t.nodes[t.items[b]].hi, t.nodes[t.items[b]].hi + 3, hi);
        return 0.0;
    }
    float llo[3], lhi[3], rlo[3], rhi[3];
    const uint32_t m = (b + e) / 2;
    const double below = areas_in_made_order(t, b, m, llo, lhi) + areas_in_made_order(t, m, e, rlo, rhi);
    for (int k = 0; k < 3; ++k) lo[k] = std::min(llo[k], rlo[k]), hi[k] = std::max(lhi[k], rhi[k]);
    return below + half_area(lo, hi);
}

// Checks the rebuilt tree below the root: every old id and every item used once,
// parent links, counts, heights and boxes; returns the deepest item's leaf depth
// and adds the rebuilt nodes' half areas to *areas.
uint32_t check_rebuilt(const MadeTop& before, const MadeTop& after, double* areas) {
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
        *areas += half_area(n.lo, n.hi);
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
        EXPECT_EQ(std::memcmp(first.meta.data(), second.meta.data(), first.meta.size() * sizeof(TopTestMeta)), 0);
        EXPECT_EQ(first.parent, second.parent);
        // Only the old top's nodes change, and the items' parent links; nothing when
        // the pass must leave the tree as it is.
        std::vector<bool> old_top(before.nodes.size(), false), item(before.nodes.size(), false);
        for (uint32_t o : before.old) old_top[o] = true;
        for (uint32_t i : before.items) item[i] = true;
        size_t changed = 0;
        for (size_t x = 0; x < before.nodes.size(); ++x) {
            const bool node_same = std::memcmp(&first.nodes[x], &before.nodes[x], sizeof(TopTestNode)) == 0;
            const bool meta_same = std::memcmp(&first.meta[x], &before.meta[x], sizeof(TopTestMeta)) == 0;
            const bool parent_same = first.parent[x] == before.parent[x];
            changed += !node_same || !meta_same || !parent_same;
            if (!old_top[x]) EXPECT_TRUE(node_same && meta_same) << "node " << x << " is not the old top's";
            if (!old_top[x] && !item[x]) EXPECT_TRUE(parent_same) << "node " << x << " is not the old top's";
        }
        ASSERT_EQ(changed > 0, c.rebuilt);
        if (!c.rebuilt) continue;
        EXPECT_EQ(first.parent[before.root], kNone) << "the root keeps its id and has no parent";
        double areas = 0.0;
        const uint32_t deepest = check_rebuilt(before, first, &areas);
        if (c.boxes == Boxes::random && c.height == 0 && c.items >= 100) {  // the splits follow the boxes
            float lo[3], hi[3];
            const double blind = areas_in_made_order(before, 0, c.items, lo, hi);
            std::printf("%s: summed node areas %.0f, balanced in made order %.0f\n", c.name, areas, blind);
            EXPECT_LT(areas, 0.5 * blind);
        }
        EXPECT_LE(deepest, kBvhMaxDepth) << "the rebuilt top pushed leaves below the traversal stack";
        EXPECT_LE(first.meta[before.root].height, deepest);
    }
}
#endif  // WF_HAVE_CUDA

}  // namespace
}  // namespace wf
