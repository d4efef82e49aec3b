// src/backends/sim/red_zones.cpp: check mode's red zones around the variables of a module.
#include "backends/sim/red_zones.hpp"

#include <charconv>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

constexpr std::string_view blanks = " \t\r";

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(blanks);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

// A statement's first word ".section", "table:" and what follows it, trimmed.
std::pair<std::string_view, std::string_view> split_word(std::string_view statement) {
    const auto end = statement.find_first_of(blanks);
    if (end == std::string_view::npos) return {statement, {}};
    return {statement.substr(0, end), trimmed(statement.substr(end))};
}

// The first operand of a directive (a name, quoted or not) and the rest after its comma.
std::pair<std::string_view, std::string_view> first_operand(std::string_view operands) {
    operands = trimmed(operands);
    if (!operands.empty() && operands.front() == '"') {
        const auto close = operands.find('"', 1);
        if (close == std::string_view::npos) return {operands.substr(1), {}};
        const auto comma = operands.find(',', close);
        return {operands.substr(1, close - 1),
                comma == std::string_view::npos ? std::string_view() : trimmed(operands.substr(comma + 1))};
    }
    const auto comma = operands.find(',');
    if (comma == std::string_view::npos) return {trimmed(operands), {}};
    return {trimmed(operands.substr(0, comma)), trimmed(operands.substr(comma + 1))};
}

// A section as a `.section` line names it.
struct Section {
    std::string name;
    std::string flags;      // the quoted flags, "aw", "awT", "aMS"
    std::string directive;  // a line that enters it again
};

Section section_named(std::string_view operands) {
    auto [name, rest] = first_operand(operands);
    std::string flags;
    if (!rest.empty() && rest.front() == '"') flags = std::string(first_operand(rest).first);
    return {std::string(name), flags, concat("\t.section\t", operands)};
}

Section plain_section(std::string_view name) { return {std::string(name), {}, concat("\t", name)}; }

bool is_alignment(std::string_view word) {
    return word == ".align" || word == ".p2align" || word == ".balign" || word.rfind(".p2align", 0) == 0 ||
           word.rfind(".balign", 0) == 0;
}

// Whether `section` holds `object` alone: -fdata-sections names a variable's section after it.
bool holds_alone(const Section& section, std::string_view object) {
    static constexpr std::string_view kinds[] = {".bss",
                                                 ".data",
                                                 ".rodata",
                                                 ".tbss",
                                                 ".tdata",
                                                 ".data.rel",
                                                 ".data.rel.local",
                                                 ".data.rel.ro",
                                                 ".data.rel.ro.local",
                                                 ".sbss",
                                                 ".sdata",
                                                 ".lbss",
                                                 ".ldata",
                                                 ".lrodata"};
    const std::string_view name = section.name;
    if (name.size() <= object.size() + 1 || name.substr(name.size() - object.size()) != object ||
        name[name.size() - object.size() - 1] != '.')
        return false;
    // Mergeable constants and strings are the linker's to lay out; code is no variable.
    if (section.flags.find_first_of("MSx") != std::string::npos) return false;
    const std::string_view kind = name.substr(0, name.size() - object.size() - 1);
    for (const std::string_view known : kinds)
        if (kind == known) return true;
    return false;
}

// The objects the assembly defines, by name, with their sizes.
std::map<std::string, std::size_t, std::less<>> objects_of(const std::vector<std::string_view>& lines) {
    std::set<std::string, std::less<>> typed;
    std::map<std::string, std::size_t, std::less<>> sizes;
    for (const std::string_view line : lines) {
        auto [word, operands] = split_word(trimmed(line));
        operands = trimmed(operands.substr(0, operands.find('#')));  // clang's "# @table"
        if (word == ".type") {
            const auto [name, type] = first_operand(operands);
            const std::string_view kind = trimmed(type);
            if (kind == "@object" || kind == "%object" || kind == "STT_OBJECT" || kind == "\"object\"")
                typed.emplace(name);
        } else if (word == ".size") {
            const auto [name, size] = first_operand(operands);
            std::size_t bytes = 0;
            const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), bytes);
            if (error == std::errc() && end == size.data() + size.size()) sizes.emplace(name, bytes);
        }
    }
    std::map<std::string, std::size_t, std::less<>> objects;
    for (const auto& [name, bytes] : sizes)
        if (typed.count(name)) objects.emplace(name, bytes);
    return objects;
}

// The label a statement defines ("table:", "table:  # @table"); empty when none.
std::string_view label_of(std::string_view statement) {
    const auto colon = statement.find(':');
    if (colon == 0 || colon == std::string_view::npos) return {};
    const std::string_view name = statement.substr(0, colon);
    if (name.find_first_of(" \t\"") != std::string_view::npos) return {};
    const std::string_view rest = trimmed(statement.substr(colon + 1));
    return rest.empty() || rest.front() == '#' || rest.rfind("//", 0) == 0 ? name : std::string_view();
}

}  // namespace

std::string add_red_zones(std::string_view assembly) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < assembly.size();) {
        const auto end = assembly.find('\n', at);
        const auto stop = end == std::string_view::npos ? assembly.size() : end;
        lines.push_back(assembly.substr(at, stop - at));
        at = stop + 1;
    }
    const auto objects = objects_of(lines);

    std::string out;
    out.reserve(assembly.size() + assembly.size() / 64);
    Section current = plain_section(".text");
    Section previous = current;
    std::vector<Section> pushed;
    std::string_view alignment;  // the latest alignment directive since entering `current`
    struct Padded {
        std::string directive;
        std::size_t bytes;
    };
    std::vector<Padded> padded;
    std::set<std::string, std::less<>> padded_sections;
    auto enter = [&](Section next) {
        previous = std::exchange(current, std::move(next));
        alignment = {};
    };
    for (const std::string_view line : lines) {
        const std::string_view statement = trimmed(line);
        const auto [word, operands] = split_word(statement);
        if (word == ".section") {
            enter(section_named(operands));
        } else if (word == ".text" || word == ".data" || word == ".bss") {
            enter(plain_section(word));
        } else if (word == ".pushsection") {
            pushed.push_back(current);
            enter(section_named(operands));
        } else if (word == ".popsection" && !pushed.empty()) {
            enter(std::move(pushed.back()));
            pushed.pop_back();
        } else if (word == ".previous") {
            enter(previous);
        } else if (is_alignment(word)) {
            alignment = line;
        } else if (const std::string_view label = label_of(statement); !label.empty()) {
            const auto object = objects.find(label);
            if (object != objects.end() && holds_alone(current, label) && !padded_sections.count(current.name)) {
                const std::size_t bytes = red_zone_bytes(object->second);
                out += concat("\t.zero\t", bytes, "\n");
                if (!alignment.empty()) out += concat(alignment, "\n");
                padded.push_back({current.directive, bytes});
                padded_sections.insert(current.name);
            }
        }
        out += line;
        out += '\n';
    }
    // The red zone after each object: the end of its section, which holds nothing else.
    for (const auto& [directive, bytes] : padded) out += concat(directive, "\n\t.zero\t", bytes, "\n");
    out += concat("\t.section\t.rodata.", red_zone_marker, ",\"a\"\n\t.type\t", red_zone_marker,
                  ", STT_OBJECT\n\t.size\t", red_zone_marker, ", 1\n", red_zone_marker, ":\n\t.byte\t1\n");
    return out;
}

}  // namespace gpukit::detail::sim
