// Observers (OpenSpiel's make_py_observer): a tensor, named views into it and
// the matching string, set from a state for a player, in any of the kinds
// of OpenSpiel's IIGObservationType (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>

#include "py_game.h"

namespace canasta::python {

namespace {

// The kind an IIGObservationType describes: OpenSpiel's or the module's, or
// anything with their fields (those missing keep the observation's).
ObsType obs_type_of(const py::object& o) {
  ObsType t;
  if (o.is_none()) return t;
  t.perfect_recall = py::bool_(py::getattr(o, "perfect_recall", py::bool_(t.perfect_recall)));
  t.public_info = py::bool_(py::getattr(o, "public_info", py::bool_(t.public_info)));
  const py::object info = py::getattr(o, "private_info", py::none());
  if (!info.is_none()) {
    const int v = py::int_(info).cast<int>();
    if (v < 0 || v > static_cast<int>(PrivateInfo::kAllPlayers))
      throw py::value_error(fmt::format("private_info {} is none of NONE, SINGLE_PLAYER, ALL_PLAYERS", v));
    t.private_info = static_cast<PrivateInfo>(v);
  }
  return t;
}

struct PyObserver {
  GamePtr game;
  ObsType type;
  py::array_t<float> tensor;
  py::dict dict;
  int seat_offset = 0;  // where the observing seat's one-hot piece begins

  PyObserver(GamePtr g, ObsType t) : game(std::move(g)), type(t) {
    tensor = py::array_t<float>(observer_size(game->rules, type));
    std::fill(tensor.mutable_data(), tensor.mutable_data() + tensor.size(), 0.0F);
    for (const TensorPiece& piece : observer_pieces(game->rules, type)) {
      int n = 1;
      for (int d : piece.shape) n *= d;
      py::object part = tensor[py::slice(piece.offset, piece.offset + n, 1)];
      dict[py::str(std::string(piece.name))] = part.attr("reshape")(py::tuple(py::cast(piece.shape)));
    }
    ObsType now = type;
    now.perfect_recall = false;
    for (const TensorPiece& piece : observer_pieces(game->rules, now))
      if (piece.name == "seat") seat_offset = piece.offset;
  }
  // `state` None: a deal not dealt yet (OpenSpiel's chance node), where the
  // observer shows the seat alone.
  void set_from(const py::object& state, int player) {
    check_seat(game->rules, player);
    float* out = tensor.mutable_data();
    if (state.is_none()) {
      std::fill(out, out + tensor.size(), 0.0F);
      out[seat_offset + player] = 1.0F;
      return;
    }
    const PyState& s = state.cast<const PyState&>();
    if (!(s.s.rules == game->rules))
      throw py::value_error("the state is of another profile: " + s.game->profile());
    observer_tensor(s.seen(), player, type, out);
  }
  std::string string_from(const py::object& state, int player) const {
    check_seat(game->rules, player);
    if (state.is_none())
      return fmt::format("seat {} (side {}); the cards are not dealt yet\n", player,
                         game->rules.team_of(player));
    const PyState& s = state.cast<const PyState&>();
    if (!(s.s.rules == game->rules))
      throw py::value_error("the state is of another profile: " + s.game->profile());
    return observer_string(s.seen(), player, type);
  }
};

}  // namespace

py::object make_observer(const GamePtr& g, const py::object& iig_obs_type, const py::object& params) {
  // OpenSpiel calls make_py_observer(params) where it has no kind to give.
  const bool params_first = py::isinstance<py::dict>(iig_obs_type);
  const py::object p = params_first ? iig_obs_type : params;
  if (!p.is_none() && py::len(p) > 0) throw py::value_error("the observer takes no parameters");
  return py::cast(PyObserver(g, obs_type_of(params_first ? py::none() : iig_obs_type)));
}

void bind_observer(py::module_& m) {
  py::class_<PyObserver>(m, "Observer", "a tensor and its named parts, set from a state for a player")
      .def_readonly("tensor", &PyObserver::tensor)
      .def_readonly("dict", &PyObserver::dict)
      .def("set_from", &PyObserver::set_from, py::arg("state"), py::arg("player"))
      .def("string_from", &PyObserver::string_from, py::arg("state"), py::arg("player"));
}

}  // namespace canasta::python
