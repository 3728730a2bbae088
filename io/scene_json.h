// Checked access to a parsed scene document. Internal to the scene loader.
//
// Every value is read through a Node (the value plus its JSON pointer), so each
// error can name the file, the exact place and what was expected there. All
// failures throw SceneError with a one-line message:
//   <file>: <pointer>: expected <what>, got <what was found>
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/math.h"
#include "io/scene_loader.h"

namespace wf::scene_json {

// ordered_json keeps the file's key order, so materials are numbered as written.
using Json = nlohmann::ordered_json;

// Largest coordinate magnitude accepted: beyond it ray arithmetic in float breaks down.
inline constexpr double kMaxCoordinate = 1e10;
// Objects and arrays nested deeper than this are rejected (the format needs 4).
inline constexpr int kMaxNesting = 64;

// ---- Limits derived from float arithmetic (checked by the loader) ---------------------------
// Sphere radius. A float coordinate of magnitude M is known to within its spacing, about
// M * 2^-23; ray hit points, their error bounds and the light-sampling pdfs (1 / (4 pi r^2)
// times squared distances up to the scene's diameter) stop making sense once the radius
// nears that spacing. So a sphere needs r >= 2^-20 M (8 spacings), M the largest coordinate
// magnitude of the geometry and the camera: then 1 / (4 pi r^2) * (2 sqrt(3) M)^2 / cos,
// the largest area-to-solid-angle pdf (cos >= 1e-6), stays below 2^61, and squares of
// such pdfs (the MIS ratios) below the float maximum 2^128. The absolute floor keeps
// r^2 and 4 pi r^2 normal floats (>= 2^-126) with room for a further factor 2^-6.
inline constexpr double kMinSphereRadiusRelative = 0x1p-20;
inline constexpr double kMinSphereRadius = 0x1p-60;
// Light power. Lights are picked uniformly, so a light path starts with throughput
// N * Phi (N lights; Phi the power: pi * area * radiance for an area light, 4 pi * intensity
// for a point light, pi R^2 * irradiance for a directional one, 4 pi * pi R^2 * radiance for
// the environment; R the scene's bounding radius). Bounding N * Phi by 2^96 leaves 2^32 of
// the float range (max 2^128) for the gains a sample picks up later: 1 / d^2 towards near
// surfaces, the camera importance, BSDF ratios. Area lights are checked as their shape is
// read, before N is known, against the loader's limit N < 2^31: Phi <= 2^65.
inline constexpr double kMaxLightPathThroughput = 0x1p96;
inline constexpr double kMaxAreaLightPower = 0x1p65;

// A JSON value and the JSON pointer (RFC 6901) that names it; "" is the document root.
struct Node {
    const Json* value = nullptr;
    std::string pointer;
    const Json& operator*() const { return *value; }
    const Json* operator->() const { return value; }
};

// Components below this make |v|^2 a denormal float or 0 (|v| < 2^-63), so normalize(v)
// comes out non-unit or infinite: a 3e-23 camera vector frames the image wrongly.
inline constexpr double kTinyVectorComponent = 0x1p-60;
// `v` as written when its largest component is at least kTinyVectorComponent; otherwise
// `v` times a power of two (exact, the direction unchanged) bringing its largest
// component into [1, 2). Zero stays zero.
Vec3f rescaled_if_tiny(Vec3f v);

// Closed or open numeric interval used for range checks and their messages.
struct Interval {
    double lo, hi;
    bool lo_open = false, hi_open = false;
    bool contains(double v) const {
        return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    }
    std::string describe() const;  // "number > 0", "number in [0, 1]", ...
};

inline constexpr double kFloatMax = 3.4028234663852886e38;
inline constexpr Interval kAnyFloat{-kFloatMax, kFloatMax};
inline constexpr Interval kNonNegative{0.0, kFloatMax};
inline constexpr Interval kPositive{0.0, kFloatMax, true, false};
inline constexpr Interval kUnit{0.0, 1.0};

// Parses JSON text (comments allowed) and rejects duplicate keys and absurd nesting.
// Syntax errors become "<source>:<line>:<col>: malformed JSON: ...".
Json parse_document(const std::string& text, const std::string& source);

// Short one-line description of a value for the "got ..." part of a message.
std::string describe(const Json& v);
// Appends one reference token to a JSON pointer, escaping '~' and '/'.
std::string pointer_append(const std::string& pointer, std::string_view key);
// `s` with control characters escaped (a message stays on one line), cut after max_len bytes.
std::string one_line(std::string_view s, size_t max_len = 1000);
// A string quoted for a message, with control characters escaped and long text cut.
std::string in_quotes(std::string_view s);
// " (did you mean "x"?)" when one of `choices` is a near miss of `got`, else "".
std::string suggestion(std::string_view got, std::span<const std::string_view> choices);
// "\"a\", \"b\", \"c\"" (at most `max_items`, then "...").
std::string quoted_list(std::span<const std::string_view> items, size_t max_items = 64);

using Choices = std::initializer_list<std::string_view>;
inline std::span<const std::string_view> as_span(Choices c) { return {c.begin(), c.size()}; }

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}
    const std::string& source() const { return source_; }

    [[noreturn]] void fail(const std::string& pointer, std::string_view expected,
                           std::string_view got) const;
    [[noreturn]] void fail(const Node& at, std::string_view expected) const {
        fail(at.pointer, expected, describe(*at));
    }

    // Structure. `what` names the object in messages ("camera", "sphere shape").
    void expect_object(const Node& n, std::string_view what) const;
    void expect_array(const Node& n, std::string_view what) const;
    // Every key of `obj` must be in `allowed` (typos are errors, with a suggestion).
    void check_keys(const Node& obj, Choices allowed, std::string_view what) const;
    std::optional<Node> member(const Node& obj, std::string_view key) const;
    Node required(const Node& obj, std::string_view key, std::string_view what) const;
    Node element(const Node& arr, size_t i) const;

    // Scalars.
    float real(const Node& n, Interval range = kAnyFloat) const;
    uint32_t integer(const Node& n, uint64_t lo, uint64_t hi) const;
    bool boolean(const Node& n) const;
    std::string string(const Node& n) const;
    // One of `choices`, with a suggestion when the value is a near miss.
    std::string choice(const Node& n, std::span<const std::string_view> choices) const;
    std::string choice(const Node& n, Choices choices) const { return choice(n, as_span(choices)); }

    // [x, y, z]: finite, |coordinate| <= kMaxCoordinate.
    Vec3f point(const Node& n) const;
    // A non-zero direction vector (not normalised). One too short to normalise in float
    // (largest component < kTinyVectorComponent: 3e-23, a denormal double) is scaled by a
    // power of two so that its largest component lies in [1, 2): its direction is kept.
    Vec3f direction(const Node& n) const;
    // A colour: one number (grey) or [r, g, b]; every channel in `range`.
    Vec3f color(const Node& n, Interval range) const;

    // Optional members with defaults.
    float real_or(const Node& obj, std::string_view key, float fallback, Interval range = kAnyFloat) const;
    bool boolean_or(const Node& obj, std::string_view key, bool fallback) const;
    Vec3f color_or(const Node& obj, std::string_view key, Vec3f fallback, Interval range) const;

private:
    std::string source_;
};

}  // namespace wf::scene_json
