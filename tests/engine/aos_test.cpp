// WF_DECLARE_AOS (engine/soa.h): the struct-of-arrays interface over an array of
// records. Views index the records' fields, sub-range views start at their first
// record, copy_element copies a whole record, and a hash grid built over an AoS field
// is the grid built over the same points in a plain array.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "accel/hash_grid.h"
#include "engine/backend/cpu_backend.h"
#include "engine/soa.h"
#include "tests/common/hash_grid_checks.h"
#include "wavefront/state/light_vertex.h"

// 36 bytes of fields in a 48-byte record: a stride that is not a power of two.
#define WF_TEST_AOS_FIELDS(X)              \
    X(wf::Vec3f, position, "a point")      \
    X(uint32_t, tag, "an id")              \
    X(float, weight, "a weight")           \
    X(wf::Vec3f, normal, "a direction")    \
    X(float, area, "an area")

namespace wf {
namespace {
WF_DECLARE_AOS(TestAos, WF_TEST_AOS_FIELDS)
}  // namespace

static_assert(sizeof(TestAosRecord) == 48, "the test's stride");

TEST(Aos, ViewFieldsAreTheRecordsFields) {
    TestAosStorage<CpuBackend> storage;
    storage.allocate(10);
    EXPECT_EQ(storage.capacity, 10u);
    EXPECT_EQ(TestAosStorage<CpuBackend>::kBytesPerElement, sizeof(TestAosRecord));
    const TestAosView v = storage.view();
    for (uint32_t i = 0; i < 10; ++i) {
        v.position[i] = Vec3f(float(i), 2.0f * i, 3.0f * i);
        v.tag[i] = 100 + i;
        v.weight[i] = 0.5f * i;
        v.normal[i] = Vec3f(-float(i), 0.0f, 1.0f);
        v.area[i] = 7.0f + i;
    }
    const TestAosRecord* records = storage.records.data();
    EXPECT_EQ(v.records, records);
    for (uint32_t i = 0; i < 10; ++i) {
        EXPECT_EQ(records[i].position.x, float(i));
        EXPECT_EQ(records[i].position.z, 3.0f * i);
        EXPECT_EQ(records[i].tag, 100 + i);
        EXPECT_EQ(records[i].weight, 0.5f * i);
        EXPECT_EQ(records[i].normal.x, -float(i));
        EXPECT_EQ(records[i].area, 7.0f + i);
    }
    const TestAosView tail = v.from(4);
    EXPECT_EQ(tail.tag[0], 104u);
    EXPECT_EQ(tail.position[5].y, 18.0f);
    EXPECT_EQ(tail.records, records + 4);
    v.copy_element(0, tail, 5);  // record 9 to record 0
    EXPECT_EQ(records[0].tag, 109u);
    EXPECT_EQ(records[0].area, 16.0f);
    EXPECT_EQ(records[0].weight, 4.5f);
    EXPECT_EQ(records[0].position.y, 18.0f);
    EXPECT_EQ(records[1].tag, 101u);  // the neighbour untouched
}

TEST(Aos, LightVertexRecordsAreThreeSectors) {
    EXPECT_EQ(sizeof(LightVertexRecord), 96u);
    // The glTF fields (prim, hit_u, hit_v) come last: the lean instantiation reads none of them.
    for (size_t end : {offsetof(LightVertexRecord, continuation) + sizeof(float),
                       offsetof(LightVertexRecord, position_error) + sizeof(Vec3f),
                       offsetof(LightVertexRecord, material) + sizeof(uint32_t),
                       offsetof(LightVertexRecord, d_vc) + sizeof(float)})
        EXPECT_LE(end, offsetof(LightVertexRecord, prim));
    // What gather_merge_vertices copies lies in the first two sectors.
    for (size_t end : {offsetof(LightVertexRecord, position) + sizeof(Vec3f),
                       offsetof(LightVertexRecord, path_length) + sizeof(uint32_t),
                       offsetof(LightVertexRecord, dir_fix) + sizeof(Vec3f), offsetof(LightVertexRecord, d_vcm) + sizeof(float),
                       offsetof(LightVertexRecord, throughput) + sizeof(Vec3f), offsetof(LightVertexRecord, d_vm) + sizeof(float),
                       offsetof(LightVertexRecord, continuation) + sizeof(float),
                       offsetof(LightVertexRecord, normal) + sizeof(Vec3f)})
        EXPECT_LE(end, 64u);
}

TEST(Aos, HashGridOverAnAosFieldIsTheGridOverAnArray) {
    CpuBackend backend;
    constexpr uint32_t n = 5000;
    TestAosStorage<CpuBackend> storage;
    storage.allocate(n);
    const TestAosView v = storage.view();
    std::vector<Vec3f> plain(n);
    uint32_t state = 99u;
    const auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (uint32_t i = 0; i < n; ++i) {
        plain[i] = Vec3f(next(), next(), next());
        v.position[i] = plain[i];
        v.tag[i] = i;
    }
    std::vector<uint32_t> count{n - 7};  // a device-side count below the capacity
    Aabb box;
    box.lo = Vec3f(0.0f);
    box.hi = Vec3f(1.0f);
    HashGrid<CpuBackend> from_array, from_records;
    from_array.reserve(n);
    from_records.reserve(n);
    from_array.build(backend, plain.data(), n, count.data(), box, 0.02f);
    from_records.build(backend, v.position, n, count.data(), box, 0.02f);
    // A sub-range's field (an iteration's block of light vertices) indexes from its first record.
    HashGrid<CpuBackend> from_tail;
    from_tail.reserve(n);
    std::vector<uint32_t> tail_count{n - 100};
    from_tail.build(backend, v.from(100).position, n - 100, tail_count.data(), box, 0.02f);
    HashGrid<CpuBackend> from_tail_array;
    from_tail_array.reserve(n);
    from_tail_array.build(backend, plain.data() + 100, n - 100, tail_count.data(), box, 0.02f);
    const HashGridView a = from_array.view(), b = from_records.view();
    ASSERT_EQ(a.num_buckets, b.num_buckets);
    ASSERT_TRUE(test::same_buckets(a.cell_starts, a.sorted_indices, b.cell_starts, b.sorted_indices, a.num_buckets));
    EXPECT_EQ(a.cell_starts[a.num_buckets], n - 7);
    const HashGridView c = from_tail.view(), d = from_tail_array.view();
    for (uint32_t k = 0; k <= c.num_buckets; ++k) ASSERT_EQ(c.cell_starts[k], d.cell_starts[k]) << "bucket " << k;
}

}  // namespace wf
