#include "io/scene_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <unordered_set>
#include <vector>

namespace wf::scene_json {
namespace {

std::string format_number(double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string display_pointer(const std::string& pointer) {
    return pointer.empty() ? std::string("(root)") : one_line(pointer, 200);
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps
// of neighbours each cost 1, ignoring case ("fvo" is one edit from "fov").
size_t edit_distance(std::string_view a, std::string_view b) {
    auto same = [](char x, char y) { return std::tolower((unsigned char)x) == std::tolower((unsigned char)y); };
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

}  // namespace

std::string suggestion(std::string_view got, std::span<const std::string_view> choices) {
    if (got.empty() || got.size() > 64) return {};
    std::string_view best;
    size_t best_d = SIZE_MAX;
    for (std::string_view c : choices) {
        size_t d = edit_distance(got, c);
        if (d < best_d) { best_d = d; best = c; }
    }
    size_t limit = std::min<size_t>(2, std::max<size_t>(1, got.size() / 3));
    if (best_d == 0 || best_d > limit) return {};
    return " (did you mean " + in_quotes(best) + "?)";
}

std::string quoted_list(std::span<const std::string_view> items, size_t max_items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i == max_items) return out + ", ...";
        out += (i ? ", " : "") + in_quotes(items[i]);
    }
    return out;
}

namespace {

bool is_scalar(const Json& v) { return !v.is_array() && !v.is_object(); }

// Builds the document from nlohmann's SAX events. Doing it here rather than with
// Json::parse lets every problem found while parsing name its JSON pointer:
// duplicate keys (nlohmann would silently keep the last), runaway nesting, and
// numbers that overflow a double (nlohmann reports those without a position).
class DocumentBuilder final : public nlohmann::json_sax<Json> {
public:
    DocumentBuilder(Json& root, const std::string& text, const std::string& source)
        : root_(root), text_(text), source_(source) {}

    bool null() override { return add(Json(nullptr)); }
    bool boolean(bool v) override { return add(Json(v)); }
    bool number_integer(number_integer_t v) override { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
    bool string(string_t& v) override { return add(Json(std::move(v))); }
    bool binary(binary_t& v) override { return add(Json::binary(std::move(v))); }

    bool start_object(std::size_t) override { return open(Json::object(), true); }
    bool start_array(std::size_t) override { return open(Json::array(), false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        Frame& f = frames_.back();
        if (!f.keys.insert(k).second) {
            f.key = k;
            Reader(source_).fail(path(false), "each key once per object", "a second " + in_quotes(k));
        }
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& last_token,
                     const nlohmann::json::exception& ex) override {
        if (ex.id == 406)  // number overflow: the value is well-formed JSON but not a double
            Reader(source_).fail(path(true), "a finite number",
                                 one_line(last_token, 40) + ", which overflows to infinity");
        // `position` counts the bytes read, the offending one included.
        size_t pos = std::min<size_t>(position > 0 ? position - 1 : 0, text_.size());
        size_t line = 1 + size_t(std::count(text_.begin(), text_.begin() + long(pos), '\n'));
        size_t line_start = pos == 0 ? std::string::npos : text_.rfind('\n', pos - 1);
        size_t col = line_start == std::string::npos ? pos + 1 : pos - line_start;
        // Drop nlohmann's "[json.exception.parse_error.101] parse error at line L, column C: ".
        std::string what = ex.what();
        size_t bracket = what.find(']');
        size_t colon = what.find(": ", bracket == std::string::npos ? 0 : bracket);
        std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
        throw SceneError(one_line(source_) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                         ": malformed JSON: " + one_line(detail, 300));
    }

private:
    struct Frame {
        Json* container;
        bool is_object;
        std::string key;  // objects: key of the current member
        long count = 0;   // arrays: elements added so far
        std::unordered_set<std::string> keys;
    };

    // Pointer of the current member of each open container. With `next`, the last
    // part names the value about to be added rather than the last one added.
    std::string path(bool next) const {
        std::string p;
        for (size_t i = 0; i < frames_.size(); ++i) {
            const Frame& f = frames_[i];
            bool last = i + 1 == frames_.size();
            if (f.is_object) p = pointer_append(p, f.key);
            else p += "/" + std::to_string(last && next ? f.count : f.count - 1);
        }
        return p;
    }

    Json* insert(Json&& v) {
        if (frames_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Frame& f = frames_.back();
        if (f.is_object) {
            Json& slot = (*f.container)[f.key];
            slot = std::move(v);
            return &slot;
        }
        f.container->push_back(std::move(v));
        ++f.count;
        return &f.container->back();
    }

    bool add(Json&& v) {
        insert(std::move(v));
        return true;
    }

    bool open(Json&& empty, bool is_object) {
        if (frames_.size() >= size_t(kMaxNesting))
            Reader(source_).fail(path(true), "nesting depth <= " + std::to_string(kMaxNesting), "deeper nesting");
        Json* c = insert(std::move(empty));
        frames_.push_back({c, is_object, {}, 0, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        return true;
    }

    Json& root_;
    const std::string& text_;
    const std::string& source_;
    std::vector<Frame> frames_;
};

}  // namespace

std::string one_line(std::string_view s, size_t max_len) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (out.size() >= max_len) {
            // Cut at a character boundary, not inside a UTF-8 sequence.
            while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
            if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
            out += "...";
            break;
        }
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += char(c);
    }
    return out;
}

std::string in_quotes(std::string_view s) { return "\"" + one_line(s, 60) + "\""; }

std::string pointer_append(const std::string& pointer, std::string_view key) {
    std::string out = pointer + "/";
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string describe(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer: return std::to_string(v.get<int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(v.get<uint64_t>());
    case Json::value_t::number_float: {
        double d = v.get<double>();
        if (!std::isfinite(d)) return "a number too large to represent (it overflows to infinity)";
        return format_number(d);
    }
    case Json::value_t::string: return "string " + in_quotes(v.get_ref<const std::string&>());
    case Json::value_t::array: {
        // Small arrays are shown as written, one level of nesting deep ([[0, 0, 0], [1, 1, 1]]).
        if (v.empty()) return "an empty array";
        auto small = [](const Json& a) { return a.size() <= 4 && std::all_of(a.begin(), a.end(), is_scalar); };
        bool shown = v.size() <= 4 && std::all_of(v.begin(), v.end(), [&](const Json& e) {
                         return is_scalar(e) || (e.is_array() && !e.empty() && small(e));
                     });
        if (!shown) return "an array of " + std::to_string(v.size()) + " elements";
        std::string out = "[";
        for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + describe(v[i]);
        return out + "]";
    }
    case Json::value_t::object: return v.empty() ? "an empty object" : "an object";
    default: return "an invalid value";
    }
}

std::string Interval::describe() const {
    if (lo <= -kFloatMax && hi >= kFloatMax) return "number";
    if (hi >= kFloatMax) return std::string("number ") + (lo_open ? "> " : ">= ") + format_number(lo);
    return "number in " + std::string(lo_open ? "(" : "[") + format_number(lo) + ", " +
           format_number(hi) + (hi_open ? ")" : "]");
}

Json parse_document(const std::string& text, const std::string& source) {
    Json root;
    DocumentBuilder builder(root, text, source);
    try {
        Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/true);
    } catch (const SceneError&) {
        throw;
    } catch (const Json::exception& e) {
        throw SceneError(one_line(source) + ": malformed JSON: " + one_line(e.what(), 300));
    }
    return root;
}

void Reader::fail(const std::string& pointer, std::string_view expected, std::string_view got) const {
    throw SceneError(one_line(source_) + ": " + display_pointer(pointer) + ": expected " + std::string(expected) +
                     ", got " + std::string(got));
}

void Reader::expect_object(const Node& n, std::string_view what) const {
    if (!n->is_object()) fail(n, "an object (" + std::string(what) + ")");
}

void Reader::expect_array(const Node& n, std::string_view what) const {
    if (!n->is_array()) fail(n, "an array (" + std::string(what) + ")");
}

void Reader::check_keys(const Node& obj, Choices allowed, std::string_view what) const {
    for (const auto& [key, value] : obj->items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        fail(pointer_append(obj.pointer, key),
             "a key of " + std::string(what) + " (" + quoted_list(as_span(allowed)) + ")",
             "unknown key " + in_quotes(key) + suggestion(key, as_span(allowed)));
    }
}

std::optional<Node> Reader::member(const Node& obj, std::string_view key) const {
    auto it = obj->find(key);
    if (it == obj->end()) return std::nullopt;
    return Node{&*it, pointer_append(obj.pointer, key)};
}

Node Reader::required(const Node& obj, std::string_view key, std::string_view what) const {
    if (auto m = member(obj, key)) return *m;
    fail(obj.pointer, "key " + in_quotes(key) + " (required in " + std::string(what) + ")",
         "an object without it");
}

Node Reader::element(const Node& arr, size_t i) const {
    return Node{&(*arr)[i], arr.pointer + "/" + std::to_string(i)};
}

float Reader::real(const Node& n, Interval range) const {
    if (!n->is_number()) fail(n, range.describe());
    double v = n->get<double>();
    if (!std::isfinite(v)) fail(n.pointer, "finite " + range.describe(), describe(*n));
    if (std::fabs(v) > kFloatMax) fail(n, range.describe() + " that fits a 32-bit float");
    if (!range.contains(v)) fail(n, range.describe());
    return float(v);
}

uint32_t Reader::integer(const Node& n, uint64_t lo, uint64_t hi) const {
    std::string expected = "integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    uint64_t u = 0;
    if (n->is_number_unsigned()) {
        u = n->get<uint64_t>();
    } else if (n->is_number_integer()) {
        if (n->get<int64_t>() < 0) fail(n, expected);
        u = uint64_t(n->get<int64_t>());
    } else if (n->is_number_float()) {
        double d = n->get<double>();
        if (!std::isfinite(d) || d < 0.0 || d > 1.8e19 || d != std::floor(d)) fail(n, expected);
        u = uint64_t(d);
    } else {
        fail(n, expected);
    }
    if (u < lo || u > hi) fail(n, expected);
    return uint32_t(u);
}

bool Reader::boolean(const Node& n) const {
    if (!n->is_boolean()) fail(n, "true or false");
    return n->get<bool>();
}

std::string Reader::string(const Node& n) const {
    if (!n->is_string()) fail(n, "string");
    return n->get<std::string>();
}

std::string Reader::choice(const Node& n, std::span<const std::string_view> choices) const {
    std::string expected = "one of " + quoted_list(choices);
    if (!n->is_string()) fail(n, expected);
    const std::string& s = n->get_ref<const std::string&>();
    if (std::find(choices.begin(), choices.end(), s) == choices.end())
        fail(n.pointer, expected, describe(*n) + suggestion(s, choices));
    return s;
}

Vec3f Reader::point(const Node& n) const {
    if (!n->is_array() || n->size() != 3) fail(n, "array of 3 numbers [x, y, z]");
    Interval range{-kMaxCoordinate, kMaxCoordinate};
    return {real(element(n, 0), range), real(element(n, 1), range), real(element(n, 2), range)};
}

Vec3f Reader::direction(const Node& n) const {
    point(n);  // shape, finiteness and range, with their messages
    // Scaled in double before rounding to float, so components below the float range
    // (1e-50) keep their ratios instead of flushing to zero.
    double d[3], largest = 0.0;
    for (size_t i = 0; i < 3; ++i) {
        d[i] = (*n)[i].get<double>();
        largest = std::max(largest, std::fabs(d[i]));
    }
    if (!(largest > 0.0)) fail(n, "non-zero direction");
    if (largest >= kTinyVectorComponent) return point(n);
    int e = 0;
    std::frexp(largest, &e);  // largest = m * 2^e, m in [0.5, 1)
    Vec3f v(float(std::ldexp(d[0], 1 - e)), float(std::ldexp(d[1], 1 - e)), float(std::ldexp(d[2], 1 - e)));
    if (!is_finite(normalize(v))) fail(n, "non-zero direction");
    return v;
}

Vec3f rescaled_if_tiny(Vec3f v) {
    float largest = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
    if (!(largest > 0.0f) || double(largest) >= kTinyVectorComponent) return v;
    int e = 0;
    std::frexp(largest, &e);
    return Vec3f(std::ldexp(v.x, 1 - e), std::ldexp(v.y, 1 - e), std::ldexp(v.z, 1 - e));
}

Vec3f Reader::color(const Node& n, Interval range) const {
    if (n->is_number()) return Vec3f(real(n, range));
    if (!n->is_array() || n->size() != 3)
        fail(n, "colour: a number (grey) or [r, g, b], each a " + range.describe());
    return {real(element(n, 0), range), real(element(n, 1), range), real(element(n, 2), range)};
}

float Reader::real_or(const Node& obj, std::string_view key, float fallback, Interval range) const {
    auto m = member(obj, key);
    return m ? real(*m, range) : fallback;
}

bool Reader::boolean_or(const Node& obj, std::string_view key, bool fallback) const {
    auto m = member(obj, key);
    return m ? boolean(*m) : fallback;
}

Vec3f Reader::color_or(const Node& obj, std::string_view key, Vec3f fallback, Interval range) const {
    auto m = member(obj, key);
    return m ? color(*m, range) : fallback;
}

}  // namespace wf::scene_json
