// The one generic struct-of-arrays declaration every state record is made from
// (Cycles' KERNEL_STRUCT_MEMBER lists, pbrt-v4's .soa files). A record is a
// list of X(type, name, comment) lines; WF_DECLARE_SOA turns it into
//   <Name>View              raw pointers, one array per field, passed to kernels
//   <Name>Storage<Backend>  the owning backend buffers, allocate(n) and view()
// so that adding a field to a record is a one-line change. View::from(first) is
// the view of a sub-range (host code: the pointers are offset on the host);
// View::copy_element(to, src, from) copies the fields of element `from` of src to
// element `to` (device code too: stages that move paths between slots).
// WF_DECLARE_SOA_WITH_SCRATCH(Name, FIELDS, SCRATCH) adds fields that copy_element
// leaves alone: per-bounce scratch (a closest-hit record) that a stage rewrites before
// any reads it, so moving a path need not carry it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/hd.h"

#define WF_SOA_POINTER_(type, name, comment) type* name;
#define WF_SOA_BUFFER_(type, name, comment) typename Backend::template Buffer<type> name;
#define WF_SOA_RESIZE_(type, name, comment) name.resize(n);
#define WF_SOA_VIEW_(type, name, comment) v.name = name.data();
#define WF_SOA_BYTES_(type, name, comment) +sizeof(type)
#define WF_SOA_OFFSET_(type, name, comment) v.name += first;
#define WF_SOA_COPY_(type, name, comment) name[to] = src.name[from];

#define WF_SOA_NO_FIELDS_(X)

#define WF_DECLARE_SOA(Name, FIELDS) WF_DECLARE_SOA_WITH_SCRATCH(Name, FIELDS, WF_SOA_NO_FIELDS_)

#define WF_DECLARE_SOA_WITH_SCRATCH(Name, FIELDS, SCRATCH)                                        \
    struct Name##View {                                                                           \
        FIELDS(WF_SOA_POINTER_)                                                                   \
        SCRATCH(WF_SOA_POINTER_)                                                                  \
        /* The view of elements [first, ...): a sub-range of the same arrays. */                  \
        Name##View from(size_t first) const {                                                     \
            Name##View v = *this;                                                                 \
            FIELDS(WF_SOA_OFFSET_)                                                                \
            SCRATCH(WF_SOA_OFFSET_)                                                               \
            return v;                                                                             \
        }                                                                                         \
        /* Every field but the scratch ones. */                                                   \
        WF_HD void copy_element(size_t to, const Name##View& src, size_t from) const {            \
            FIELDS(WF_SOA_COPY_)                                                                  \
        }                                                                                         \
    };                                                                                            \
    template <class Backend>                                                                      \
    struct Name##Storage {                                                                        \
        FIELDS(WF_SOA_BUFFER_)                                                                    \
        SCRATCH(WF_SOA_BUFFER_)                                                                   \
        static constexpr size_t kBytesPerElement = 0 FIELDS(WF_SOA_BYTES_) SCRATCH(WF_SOA_BYTES_); \
        uint32_t capacity = 0;                                                                    \
        void allocate(uint32_t n) {                                                               \
            FIELDS(WF_SOA_RESIZE_)                                                                \
            SCRATCH(WF_SOA_RESIZE_)                                                               \
            capacity = n;                                                                         \
        }                                                                                         \
        Name##View view() {                                                                       \
            Name##View v;                                                                         \
            FIELDS(WF_SOA_VIEW_)                                                                  \
            SCRATCH(WF_SOA_VIEW_)                                                                 \
            return v;                                                                             \
        }                                                                                         \
    };
