// The generic declarations every state record is made from (Cycles'
// KERNEL_STRUCT_MEMBER lists, pbrt-v4's .soa files). A record is a list of
// X(type, name, comment) lines; WF_DECLARE_SOA turns it into a struct of arrays:
//   <Name>View              raw pointers, one array per field, passed to kernels
//   <Name>Storage<Backend>  the owning backend buffers, allocate(n) and view()
// so that adding a field to a record is a one-line change. View::from(first) is
// the view of a sub-range (host code: the pointers are offset on the host);
// View::copy_element(to, src, from) copies the fields of element `from` of src to
// element `to` (device code too: stages that move paths between slots).
// WF_DECLARE_SOA_WITH_SCRATCH(Name, FIELDS, SCRATCH) adds fields that copy_element
// leaves alone: per-bounce scratch (a closest-hit record) that a stage rewrites before
// any reads it, so moving a path need not carry it.
// WF_DECLARE_AOS(Name, FIELDS) declares the same interface over an array of records
// instead (below), for records read at random rather than by neighbouring threads;
// its View's fields are AosField accessors rather than raw pointers.
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

namespace wf {
// A field of an array of structures, indexed as a struct-of-arrays field's pointer is:
// element i's field lies Stride bytes after element i - 1's.
template <class T, size_t Stride>
struct AosField {
    unsigned char* base;  // element 0's field
    WF_HD T& operator[](size_t i) const { return *reinterpret_cast<T*>(base + i * Stride); }
};
}  // namespace wf

#define WF_AOS_MEMBER_(type, name, comment) type name;
#define WF_AOS_FIELD_(type, name, comment) ::wf::AosField<type, sizeof(Record)> name;
#define WF_AOS_VIEW_(type, name, comment) v.name.base = bytes + offsetof(Record, name);
#define WF_AOS_OFFSET_(type, name, comment) v.name.base += first * sizeof(Record);

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

// WF_DECLARE_AOS(Name, FIELDS): the same View and Storage interface over one array of
// records (struct Name##Record, the fields in list order, 16-byte aligned), for a record
// read at random places: a struct-of-arrays read of one element touches a 32-byte sector
// per field, a record read the few sectors the record spans. View::records is that array:
// a stage that writes every field writes the record whole (16-byte stores), as field by
// field each store of a warp would touch 32 sectors for 4 bytes of each.
#define WF_DECLARE_AOS(Name, FIELDS)                                                      \
    struct alignas(16) Name##Record {                                                     \
        FIELDS(WF_AOS_MEMBER_)                                                            \
    };                                                                                    \
    struct Name##View {                                                                   \
        using Record = Name##Record;                                                      \
        Record* records;                                                                  \
        FIELDS(WF_AOS_FIELD_)                                                             \
        Name##View from(size_t first) const {                                             \
            Name##View v = *this;                                                         \
            v.records += first;                                                           \
            FIELDS(WF_AOS_OFFSET_)                                                        \
            return v;                                                                     \
        }                                                                                 \
        WF_HD void copy_element(size_t to, const Name##View& src, size_t from) const {    \
            records[to] = src.records[from];                                              \
        }                                                                                 \
    };                                                                                    \
    template <class Backend>                                                              \
    struct Name##Storage {                                                                \
        typename Backend::template Buffer<Name##Record> records;                          \
        static constexpr size_t kBytesPerElement = sizeof(Name##Record);                  \
        uint32_t capacity = 0;                                                            \
        void allocate(uint32_t n) {                                                       \
            records.resize(n);                                                            \
            capacity = n;                                                                 \
        }                                                                                 \
        Name##View view() {                                                               \
            using Record = Name##Record;                                                  \
            Name##View v;                                                                 \
            v.records = records.data();                                                   \
            unsigned char* const bytes = reinterpret_cast<unsigned char*>(records.data()); \
            FIELDS(WF_AOS_VIEW_)                                                          \
            return v;                                                                     \
        }                                                                                 \
    };
