// The rows of a run as NumPy structured arrays: a dtype over the rows'
// memory, field by field, so that no row is copied.
#include <cstddef>
#include <type_traits>

#include "canasta/stats.h"
#include "sim_bindings.h"

namespace canasta::python {

namespace {

// A NumPy structured dtype over Row's memory: (name, offset, format) per field.
struct Field {
  const char* name;
  size_t offset;
  const char* format;
};

py::dtype dtype_of(const std::vector<Field>& fields, size_t itemsize) {
  py::list names, formats, offsets;
  for (const Field& f : fields) {
    names.append(f.name);
    formats.append(f.format);
    offsets.append(f.offset);
  }
  py::dict d;
  d["names"] = names;
  d["formats"] = formats;
  d["offsets"] = offsets;
  d["itemsize"] = itemsize;
  return py::dtype::from_args(d);
}

// Values per side have one entry per table side.
py::dtype deal_dtype(int sides) {
  const std::string n = "(" + std::to_string(sides) + ",)";
  const std::string i4 = n + "<i4", i1 = n + "i1", i2 = n + "<i2";
  return dtype_of({{"deal", offsetof(DealRow, deal), "<i8"},
                   {"swapped", offsetof(DealRow, swapped), "i1"},
                   {"end", offsetof(DealRow, end), "i1"},
                   {"out_seat", offsetof(DealRow, out_seat), "i1"},
                   {"concealed", offsetof(DealRow, concealed), "i1"},
                   {"turns", offsetof(DealRow, turns), "<i2"},
                   {"actions", offsetof(DealRow, actions), "<i2"},
                   {"score", offsetof(DealRow, score), i4.c_str()},
                   {"natural_canastas", offsetof(DealRow, natural_canastas), i1.c_str()},
                   {"mixed_canastas", offsetof(DealRow, mixed_canastas), i1.c_str()},
                   {"red_threes", offsetof(DealRow, red_threes), i1.c_str()},
                   {"opening_turn", offsetof(DealRow, opening_turn), i2.c_str()},
                   {"pickups", offsetof(DealRow, pickups), "<i2"},
                   {"pickup_cards", offsetof(DealRow, pickup_cards), "<i2"},
                   {"freezes", offsetof(DealRow, freezes), "<i2"},
                   {"blocks", offsetof(DealRow, blocks), "<i2"}},
                  sizeof(DealRow));
}

py::dtype game_dtype(int sides) {
  const std::string total = "(" + std::to_string(sides) + ",)<i4";
  std::vector<Field> fields{{"game", offsetof(GameRow, game), "<i8"},
                            {"swapped", offsetof(GameRow, swapped), "i1"},
                            {"end", offsetof(GameRow, end), "i1"},
                            {"winner", offsetof(GameRow, winner), "i1"},
                            {"total", offsetof(GameRow, total), total.c_str()}};
  for (const DealCountField& f : deal_count_fields()) {
    const auto offset = offsetof(GameRow, counts) +
                        static_cast<size_t>(reinterpret_cast<const char*>(
                                                &(static_cast<const DealCounts*>(nullptr)->*f.member)) -
                                            static_cast<const char*>(nullptr));
    fields.push_back({f.name.data(), offset, "<i8"});
  }
  return dtype_of(fields, sizeof(GameRow));
}

template <class Row>
py::array array_of(std::vector<Row>&& rows, int sides) {
  const py::dtype dtype = std::is_same_v<Row, GameRow> ? game_dtype(sides) : deal_dtype(sides);
  auto* owned = new std::vector<Row>(std::move(rows));
  py::capsule keep(owned, [](void* p) { delete static_cast<std::vector<Row>*>(p); });
  return py::array(dtype, {static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(Row))},
                   owned->data(), keep);
}

}  // namespace

py::array rows_array(std::vector<DealRow>&& rows, int sides) { return array_of(std::move(rows), sides); }
py::array rows_array(std::vector<GameRow>&& rows, int sides) { return array_of(std::move(rows), sides); }

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

}  // namespace canasta::python
