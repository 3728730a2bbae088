// Binned SAH builder (Wald 2007, "On fast Construction of SAH-based Bounding
// Volume Hierarchies"): top-down, each node bins primitive centroids into 16
// slabs per axis and takes the cheapest of the 15 split planes per axis.
// Primitive records (box + id) are partitioned in place, so every pass over a
// node streams through contiguous memory.
#include "accel/bvh_build.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace wf {
namespace {

constexpr int kNumBins = 16;
constexpr uint32_t kMinLeafSize = 2;    // this few primitives always make a leaf

// Plain min/max: the builder's inputs are finite, and fminf/fmaxf are library
// calls on x86 without fast-math.
inline Vec3f vmin(Vec3f a, Vec3f b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
inline Vec3f vmax(Vec3f a, Vec3f b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

struct Box {
    Vec3f lo{kInfinity}, hi{-kInfinity};
    void extend(Vec3f p) { lo = vmin(lo, p); hi = vmax(hi, p); }
    void extend(const Box& b) { lo = vmin(lo, b.lo); hi = vmax(hi, b.hi); }
    float half_area() const {  // half the surface area; SAH only compares ratios
        if (lo.x > hi.x) return 0.0f;
        Vec3f d = hi - lo;
        return d.x * d.y + d.y * d.z + d.z * d.x;
    }
};

struct PrimRef {
    Vec3f lo;
    uint32_t id;
    Vec3f hi;
    float pad = 0.0f;
    Vec3f centroid() const { return (lo + hi) * 0.5f; }
};

struct BuildTask {
    uint32_t node, begin, end, depth;  // refs[begin, end) go under `node`
};

struct Bin {
    Box box;
    uint32_t count = 0;
};

struct Split {
    int axis = -1;      // -1: no split plane separates the centroids
    int bin = 0;        // left side: centroid bins [0, bin)
    float cost = 0.0f;  // sum over sides of count * half area
};

// Centroid -> bin along one axis. Used for binning and for partitioning, so
// both agree exactly on every primitive's side.
struct Binning {
    float lo[3], scale[3];
    bool usable[3];

    explicit Binning(const Box& centroid_box) {
        for (int a = 0; a < 3; ++a) {
            float extent = centroid_box.hi[a] - centroid_box.lo[a];
            lo[a] = centroid_box.lo[a];
            scale[a] = extent > 0.0f ? float(kNumBins) / extent : 0.0f;
            usable[a] = extent > 0.0f && std::isfinite(scale[a]);
        }
    }
    int bin(float c, int a) const {
        float f = (c - lo[a]) * scale[a];
        if (!(f >= 0.0f)) return 0;  // NaN centroids (bad input) go left
        return f < float(kNumBins - 1) ? int(f) : kNumBins - 1;
    }
};

Split find_sah_split(const Binning& binning, const PrimRef* refs, uint32_t count) {
    Bin bins[3][kNumBins];
    for (uint32_t i = 0; i < count; ++i) {
        Box b{refs[i].lo, refs[i].hi};
        Vec3f c = refs[i].centroid();
        for (int a = 0; a < 3; ++a) {
            if (!binning.usable[a]) continue;
            Bin& bin = bins[a][binning.bin(c[a], a)];
            bin.box.extend(b);
            ++bin.count;
        }
    }
    Split best;
    for (int a = 0; a < 3; ++a) {
        if (!binning.usable[a]) continue;
        // Sweep from the right, then from the left: split i puts bins [0, i) left.
        float right_area[kNumBins];
        uint32_t right_count[kNumBins];
        Box acc;
        uint32_t n = 0;
        for (int i = kNumBins - 1; i >= 1; --i) {
            acc.extend(bins[a][i].box);
            n += bins[a][i].count;
            right_area[i] = acc.half_area();
            right_count[i] = n;
        }
        acc = Box{};
        n = 0;
        for (int i = 1; i < kNumBins; ++i) {
            acc.extend(bins[a][i - 1].box);
            n += bins[a][i - 1].count;
            if (n == 0 || right_count[i] == 0) continue;
            float cost = float(n) * acc.half_area() + float(right_count[i]) * right_area[i];
            if (best.axis < 0 || cost < best.cost) best = {a, i, cost};
        }
    }
    return best;
}

// Splits refs[0, count) at the median centroid along the widest axis. Used when
// centroids coincide and below the SAH depth limit; always halves the range.
uint32_t median_split(const Box& centroid_box, const Box& box, PrimRef* refs, uint32_t count) {
    Vec3f extent = centroid_box.hi - centroid_box.lo;
    if (max_component(extent) <= 0.0f) extent = box.hi - box.lo;
    int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    uint32_t half = count / 2;
    std::nth_element(refs, refs + half, refs + count, [axis](const PrimRef& x, const PrimRef& y) {
        float cx = x.centroid()[axis], cy = y.centroid()[axis];
        return cx < cy || (cx == cy && x.id < y.id);  // total order: deterministic sides
    });
    return half;
}

}  // namespace

Bvh build_bvh_binned_sah(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres) {
    const uint64_t n64 = uint64_t(triangles.size()) + uint64_t(spheres.size());
    if (n64 >= uint64_t(0xffffffffu))  // 0xffffffff is kNoHit
        throw std::length_error("build_bvh_binned_sah: " + std::to_string(n64) +
                                " primitives do not fit 32-bit primitive ids");
    const uint32_t n = uint32_t(n64);

    Bvh bvh;
    if (n == 0) {
        BvhNode empty{};
        empty.lo = Vec3f(kInfinity);
        empty.hi = Vec3f(-kInfinity);
        empty.first = 0;
        empty.count = 0;
        bvh.nodes.push_back(empty);
        return bvh;
    }

    std::vector<PrimRef> refs(n);
    const uint32_t num_triangles = uint32_t(triangles.size());
    for (uint32_t i = 0; i < num_triangles; ++i) {
        const Triangle& t = triangles[i];
        refs[i].lo = vmin(t.p0, vmin(t.p1, t.p2));
        refs[i].hi = vmax(t.p0, vmax(t.p1, t.p2));
        refs[i].id = i;
    }
    for (uint32_t i = 0; i < uint32_t(spheres.size()); ++i) {
        const Sphere& s = spheres[i];
        Vec3f r(std::fabs(s.radius));
        refs[num_triangles + i].lo = s.center - r;
        refs[num_triangles + i].hi = s.center + r;
        refs[num_triangles + i].id = num_triangles + i;
    }

    // SAH splits may be arbitrarily unbalanced, so below this depth the builder
    // switches to median splits, which reach leaves within kBvhMaxDepth.
    uint32_t median_levels = 0;
    while ((uint64_t(kBvhMaxLeafSize) << median_levels) < n) ++median_levels;
    const uint32_t sah_depth_limit = kBvhMaxDepth - median_levels;

    bvh.nodes.reserve(2 * size_t(n));
    bvh.nodes.push_back(BvhNode{});
    std::vector<BuildTask> tasks{{0, 0, n, 0}};
    while (!tasks.empty()) {
        BuildTask task = tasks.back();
        tasks.pop_back();
        PrimRef* range = refs.data() + task.begin;
        const uint32_t count = task.end - task.begin;

        Box box, centroid_box;
        for (uint32_t i = 0; i < count; ++i) {
            box.extend(Box{range[i].lo, range[i].hi});
            centroid_box.extend(range[i].centroid());
        }
        BvhNode& node = bvh.nodes[task.node];
        node.lo = box.lo;
        node.hi = box.hi;
        node.first = task.begin;
        node.count = count;  // a leaf unless split below

        if (count <= kMinLeafSize) continue;

        uint32_t mid = 0;  // the left child gets range[0, mid)
        Binning binning(centroid_box);
        Split split;
        if (task.depth < sah_depth_limit) split = find_sah_split(binning, range, count);
        if (split.axis >= 0) {
            // SAH: split cost = C_trav * A + sum(N_side * A_side), leaf cost = N * A.
            float area = box.half_area();
            bool split_pays = kBvhTraversalCost * area + split.cost < float(count) * area;
            if (!split_pays && count <= kBvhMaxLeafSize) continue;
            const int axis = split.axis, bin = split.bin;
            PrimRef* middle = std::partition(range, range + count, [&](const PrimRef& r) {
                return binning.bin(r.centroid()[axis], axis) < bin;
            });
            mid = uint32_t(middle - range);
        } else {
            // Coincident centroids, or below the SAH depth limit.
            if (count <= kBvhMaxLeafSize) continue;
            mid = median_split(centroid_box, box, range, count);
        }

        if (task.depth >= kBvhMaxDepth)  // unreachable: see sah_depth_limit
            throw std::logic_error("build_bvh_binned_sah: depth limit exceeded");
        uint32_t left = uint32_t(bvh.nodes.size());
        bvh.nodes.push_back(BvhNode{});
        bvh.nodes.push_back(BvhNode{});
        BvhNode& parent = bvh.nodes[task.node];  // re-fetch: push_back may reallocate
        parent.first = left;
        parent.count = 0;
        // Right first so the left subtree is built next (depth-first node order).
        tasks.push_back({left + 1, task.begin + mid, task.end, task.depth + 1});
        tasks.push_back({left, task.begin, task.begin + mid, task.depth + 1});
    }

    bvh.prim_index.resize(n);
    for (uint32_t i = 0; i < n; ++i) bvh.prim_index[i] = refs[i].id;
    return bvh;
}

}  // namespace wf
