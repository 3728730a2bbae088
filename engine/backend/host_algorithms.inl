// Implementation of HostAlgorithms for any backend; included by one .cpp (CPU)
// and one .cu (CUDA).
#pragma once

#include "engine/backend/host_algorithms.h"
#include "engine/hd.h"

namespace wf::host_algorithms_detail {

template <class B>
struct Impl {
    template <class T>
    using Buf = typename B::template Buffer<T>;

    static std::vector<uint32_t> exclusive_scan(const std::vector<uint32_t>& in) {
        B be;
        Buf<uint32_t> a, b(in.size());
        a.upload(in);
        be.exclusive_scan("test_scan", a.data(), b.data(), uint32_t(in.size()));
        be.synchronize();
        return b.to_vector();
    }
    static std::pair<std::vector<uint32_t>, std::vector<uint32_t>> sort_pairs(const std::vector<uint32_t>& k,
                                                                              const std::vector<uint32_t>& v) {
        B be;
        Buf<uint32_t> ki, vi, ko(k.size()), vo(v.size());
        ki.upload(k);
        vi.upload(v);
        be.sort_pairs("test_sort", ki.data(), ko.data(), vi.data(), vo.data(), uint32_t(k.size()));
        be.synchronize();
        return {ko.to_vector(), vo.to_vector()};
    }
    static std::vector<uint32_t> select_flagged_indices(const std::vector<uint8_t>& flags) {
        B be;
        Buf<uint8_t> f;
        Buf<uint32_t> out(flags.size()), count(1);
        f.upload(flags);
        be.select_flagged_indices("test_select", f.data(), out.data(), count.data(), uint32_t(flags.size()));
        be.synchronize();
        std::vector<uint32_t> all = out.to_vector();
        uint32_t n = count.to_vector()[0];
        all.resize(n);
        return all;
    }
    static float reduce_sum(const std::vector<float>& in) {
        B be;
        Buf<float> a, out(1);
        a.upload(in);
        be.reduce_sum("test_reduce", a.data(), out.data(), uint32_t(in.size()));
        be.synchronize();
        return out.to_vector()[0];
    }
    static std::pair<std::vector<uint32_t>, uint32_t> parallel_square(const std::vector<uint32_t>& in) {
        B be;
        Buf<uint32_t> a, b(in.size()), counter(1);
        a.upload(in);
        const uint32_t* src = a.data();
        uint32_t* dst = b.data();
        uint32_t* count = counter.data();
        be.parallel_for("test_square", uint32_t(in.size()), WF_LAMBDA(uint32_t i) {
            dst[i] = src[i] * src[i];
            atomic_add(count, 1u);
        });
        be.synchronize();
        return {b.to_vector(), counter.to_vector()[0]};
    }
    static std::vector<uint32_t> push_items(const std::vector<uint32_t>& masks) {
        B be;
        Buf<uint32_t> m, out(masks.size() * 8), counter(1);
        m.upload(masks);
        const uint32_t* src = m.data();
        uint32_t* dst = out.data();
        uint32_t* count = counter.data();
        be.parallel_for("test_push_items", uint32_t(masks.size()), WF_LAMBDA(uint32_t i) {
            atomic_push_items<8>(count, src[i], [&](uint32_t j, uint32_t at) { dst[at] = i * 32u + j; });
        });
        be.synchronize();
        std::vector<uint32_t> all = out.to_vector();
        all.resize(counter.to_vector()[0]);
        return all;
    }
};

template <class B>
HostAlgorithms make() {
    return {&Impl<B>::exclusive_scan, &Impl<B>::sort_pairs, &Impl<B>::select_flagged_indices, &Impl<B>::reduce_sum,
            &Impl<B>::parallel_square, &Impl<B>::push_items};
}

}  // namespace wf::host_algorithms_detail
