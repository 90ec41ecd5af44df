/*
 * crownmodule.c - the Python module `crown`: the engine for research programs.
 *
 * A CPython extension over the public C API (include/crown.h) and nothing else. It keeps
 * OpenSpiel's pyspiel contract (docs/PYTHON.md): its player ids, and actions as the
 * dense indices of crown.h, never crown's packed moves. A call that fails raises crown.Error with crown's own message and,
 * as the C API guarantees, leaves the state as it was. Searches and perft release the
 * GIL, working on a clone so that other threads may go on using the state. Types are
 * heap types whose classes and exception live in the module's state, so the module keeps
 * no mutable globals.
 *
 * Speed: the hot calls (legal_actions, apply_action, current_player, ...) take no
 * argument parsing (METH_O, METH_NOARGS); the C state keeps its legal actions and who
 * acts, and their indices in order, until it changes; and a game keeps one int object per
 * action index it has given out, so listing legal actions allocates only the list.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crown.h"

typedef struct {
    PyObject *error;       /* crown.Error */
    PyTypeObject *game_type;
    PyTypeObject *state_type;
    PyTypeObject *agent_type;
    PyObject *numpy;       /* imported on the first observation tensor */
} ModState;

/* pyspiel's player ids (its PlayerId), which crown.h numbers otherwise. */
enum { SPIEL_CHANCE = -1, SPIEL_SIMULTANEOUS = -2, SPIEL_INVALID = -3, SPIEL_TERMINAL = -4 };

typedef struct {
    PyObject_HEAD
    crown_game *game;
    /* The ints given out for action indices, by index; NULL until the first. Indices
     * run far beyond Python's cached small ints, so without this every listed action
     * would be a new object. */
    PyObject **ints;
    int nints;
} GameObject;

typedef struct {
    PyObject_HEAD
    crown_state *state;
    PyObject *game; /* keeps the crown_game alive */
} StateObject;

typedef struct {
    PyObject_HEAD
    crown_agent *agent;
    PyObject *game; /* the game the agent was made for, NULL until the first step */
    char *spec;
    uint64_t seed;
    int depth;
    long long nodes;
    long long movetime_ms;
    /* A step runs without the GIL: a second thread stepping the same agent meanwhile
     * gets an error instead of sharing the C agent, which allows one thread. */
    int thinking;
    /* The last step's principal variation as action indices, each taken in the position
     * it is played in. */
    int pv[CROWN_MAX_PV];
    int npv;
} AgentObject;

static struct PyModuleDef crown_module;

/* The module's state from any of its types, or a Python subclass of one (Agent is
 * subclassable), whose own module is another. */
static ModState *state_of_type(PyTypeObject *type) {
    return (ModState *)PyModule_GetState(PyType_GetModuleByDef(type, &crown_module));
}

/* crown.Error with the status name and crown's message: "illegal: ...". */
static PyObject *raise_mod(ModState *mod, int code, const char *message) {
    PyErr_Format(mod->error, "%s: %s", crown_status_name(code), message);
    return NULL;
}

static PyObject *raise_crown(PyTypeObject *type, int code, const char *message) {
    return raise_mod(state_of_type(type), code, message);
}

static PyObject *raise_state(StateObject *self) {
    return raise_crown(Py_TYPE(self), crown_state_errcode(self->state),
                       crown_state_errmsg(self->state));
}

/* ---- Game ---------------------------------------------------------------------------- */

static void game_dealloc(PyObject *obj) {
    PyTypeObject *type = Py_TYPE(obj);
    GameObject *self = (GameObject *)obj;
    if (self->ints)
        for (int i = 0; i < self->nints; i++) Py_XDECREF(self->ints[i]);
    PyMem_Free(self->ints);
    crown_game_free(self->game);
    type->tp_free(obj);
    Py_DECREF(type);
}

static PyObject *game_name(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(crown_game_name(((GameObject *)self)->game));
}

static PyObject *game_num_players(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(crown_game_players(((GameObject *)self)->game));
}

static PyObject *game_parameters(PyObject *self, PyObject *unused) {
    (void)unused;
    const crown_game *game = ((GameObject *)self)->game;
    PyObject *dict = PyDict_New();
    if (!dict) return NULL;
    for (int i = 0; i < crown_game_option_count(game); i++) {
        const char *name = crown_game_option_name(game, i);
        PyObject *value = PyUnicode_FromString(crown_game_option_value(game, name));
        if (!value || PyDict_SetItemString(dict, name, value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(dict);
            return NULL;
        }
        Py_DECREF(value);
    }
    return dict;
}

static PyObject *game_observation_tensor_shape(PyObject *self, PyObject *unused) {
    (void)unused;
    int dims[CROWN_OBS_MAX_DIMS], ndims = 0;
    crown_error err;
    int rc = crown_game_observation_shape(((GameObject *)self)->game, dims, CROWN_OBS_MAX_DIMS,
                                          &ndims, &err);
    if (rc != CROWN_OK) return raise_crown(Py_TYPE(self), rc, err.message);
    PyObject *list = PyList_New(ndims);
    if (!list) return NULL;
    for (int i = 0; i < ndims; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(dims[i]));
    if (PyErr_Occurred()) Py_CLEAR(list); /* an int that could not be made: a NULL item */
    return list;
}

/* pyspiel's bound on a game's length, in actions: every action of a turn and every chance
 * outcome counts. */
static PyObject *game_max_game_length(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(crown_game_max_game_length(((GameObject *)self)->game));
}

static PyObject *game_num_distinct_actions(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(crown_game_num_distinct_actions(((GameObject *)self)->game));
}

static PyObject *game_max_chance_outcomes(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(crown_game_max_chance_outcomes(((GameObject *)self)->game));
}

static PyObject *game_perfect_information(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(crown_game_perfect_information(((GameObject *)self)->game));
}

/* A new reference to the int of action index a: the game's, once it has given it. */
static PyObject *action_int(GameObject *game, int a) {
    if (!game->ints) {
        int n = crown_game_num_distinct_actions(game->game);
        int chance = crown_game_max_chance_outcomes(game->game);
        n = n > chance ? n : chance;
        game->ints = PyMem_Calloc((size_t)n, sizeof *game->ints);
        if (!game->ints) return PyLong_FromLong(a); /* the table is only a speed-up */
        game->nints = n;
    }
    if (a < 0 || a >= game->nints) return PyLong_FromLong(a);
    PyObject *v = game->ints[a];
    if (!v && !(v = game->ints[a] = PyLong_FromLong(a))) return NULL;
    Py_INCREF(v);
    return v;
}

/* A list of the ints of n action indices. */
static PyObject *action_list(PyObject *game, const int *actions, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *a = action_int((GameObject *)game, actions[i]);
        if (!a) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, a);
    }
    return list;
}

static PyObject *new_state(PyObject *game, crown_state *state) {
    PyTypeObject *type = state_of_type(Py_TYPE(game))->state_type;
    StateObject *obj = PyObject_New(StateObject, type);
    if (!obj) {
        crown_state_free(state);
        return NULL;
    }
    obj->state = state;
    Py_INCREF(game);
    obj->game = game;
    return (PyObject *)obj;
}

static PyObject *game_new_initial_state(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"seed", NULL};
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|K", kwlist, &seed)) return NULL;
    crown_state *state = NULL;
    crown_error err;
    int rc = crown_state_new(((GameObject *)self)->game, seed, &state, &err);
    if (rc != CROWN_OK) return raise_crown(Py_TYPE(self), rc, err.message);
    return new_state(self, state);
}

static PyObject *game_repr(PyObject *self) {
    return PyUnicode_FromFormat("crown.Game(%s)", crown_game_name(((GameObject *)self)->game));
}

static PyMethodDef game_methods[] = {
    {"name", game_name, METH_NOARGS, "The game's registered name."},
    {"num_players", game_num_players, METH_NOARGS, "The number of players."},
    {"parameters", game_parameters, METH_NOARGS, "Every rule option and its value."},
    {"observation_tensor_shape", game_observation_tensor_shape, METH_NOARGS,
     "The shape of observation_tensor()."},
    {"max_game_length", game_max_game_length, METH_NOARGS,
     "No game lasts more actions than this."},
    {"num_distinct_actions", game_num_distinct_actions, METH_NOARGS,
     "Players' action indices are in [0, this)."},
    {"max_chance_outcomes", game_max_chance_outcomes, METH_NOARGS,
     "Chance outcomes' indices are in [0, this); 0 without chance."},
    {"_perfect_information", game_perfect_information, METH_NOARGS,
     "Whether nothing is hidden (read by get_type)."},
    {"new_initial_state", (PyCFunction)(void (*)(void))game_new_initial_state,
     METH_VARARGS | METH_KEYWORDS, "The start position; seed drives any random set-up."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot game_slots[] = {
    {Py_tp_dealloc, (void *)game_dealloc},
    {Py_tp_methods, game_methods},
    {Py_tp_repr, (void *)game_repr},
    {Py_tp_doc, (char *)"A game with its rule options; made by crown.load_game."},
    {0, NULL},
};

static PyType_Spec game_spec = {"crown.Game", sizeof(GameObject), 0, Py_TPFLAGS_DEFAULT,
                                game_slots};

/* ---- State --------------------------------------------------------------------------- */

static void state_dealloc(PyObject *obj) {
    PyTypeObject *type = Py_TYPE(obj);
    StateObject *self = (StateObject *)obj;
    crown_state_free(self->state);
    Py_XDECREF(self->game);
    type->tp_free(obj);
    Py_DECREF(type);
}

/* An action index of a call on obj; one outside an int's range is illegal, as the C
 * calls say of any other index no legal action has. */
static int to_action(PyObject *obj, PyObject *value, int *out) {
    long a = PyLong_AsLong(value);
    if (a == -1 && PyErr_Occurred()) return -1;
    if (a < 0 || a > INT32_MAX) {
        PyErr_Format(state_of_type(Py_TYPE(obj))->error, "%s: no legal action has index %ld",
                     crown_status_name(CROWN_ERROR_ILLEGAL), a);
        return -1;
    }
    *out = (int)a;
    return 0;
}

static long spiel_player(int who) {
    return who == CROWN_PLAYER_CHANCE ? SPIEL_CHANCE : who == CROWN_PLAYER_NONE ? SPIEL_TERMINAL : who;
}

static PyObject *state_current_player(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(spiel_player(crown_state_to_move(((StateObject *)self)->state)));
}

static PyObject *state_is_terminal(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(crown_state_is_over(((StateObject *)self)->state));
}

static PyObject *state_is_chance_node(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(crown_state_to_move(((StateObject *)self)->state) ==
                           CROWN_PLAYER_CHANCE);
}

/* A new list each time, ascending, as pyspiel gives, so the caller may change it freely;
 * at a chance node the outcomes. pyspiel's legal_actions(player) gives a player other
 * than the one to act no actions. */
static PyObject *state_legal_actions(PyObject *obj, PyObject *const *args, Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    int actions[CROWN_MAX_ACTIONS];
    int n = 0;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "legal_actions takes at most one player");
        return NULL;
    }
    if (nargs == 1) {
        long player = PyLong_AsLong(args[0]);
        if (player == -1 && PyErr_Occurred()) return NULL;
        if (player != spiel_player(crown_state_to_move(self->state))) return PyList_New(0);
    }
    if (crown_state_legal_indices(self->state, actions, NULL, CROWN_MAX_ACTIONS, &n) != CROWN_OK)
        return raise_state(self);
    return action_list(self->game, actions, n);
}

static PyObject *state_chance_outcomes(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    int actions[CROWN_MAX_ACTIONS];
    double prob[CROWN_MAX_ACTIONS];
    int n = 0;
    if (crown_state_to_move(self->state) != CROWN_PLAYER_CHANCE) return PyList_New(0);
    if (crown_state_legal_indices(self->state, actions, prob, CROWN_MAX_ACTIONS, &n) != CROWN_OK)
        return raise_state(self);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *a = action_int((GameObject *)self->game, actions[i]);
        PyObject *p = a ? PyFloat_FromDouble(prob[i]) : NULL;
        PyObject *pair = p ? PyTuple_Pack(2, a, p) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(p);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static PyObject *state_apply_action(PyObject *obj, PyObject *arg) {
    StateObject *self = (StateObject *)obj;
    int a;
    if (to_action(obj, arg, &a) < 0) return NULL;
    if (crown_state_apply_index(self->state, a) != CROWN_OK) return raise_state(self);
    Py_RETURN_NONE;
}

/* What a player types, read by crown's play layer as `crown play` and the browser read it. */
static PyObject *state_apply_text(PyObject *obj, PyObject *arg) {
    StateObject *self = (StateObject *)obj;
    const char *text = PyUnicode_AsUTF8(arg);
    if (!text) return NULL;
    if (crown_state_apply_text(self->state, text) != CROWN_OK) return raise_state(self);
    Py_RETURN_NONE;
}

static PyObject *state_undo(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    if (crown_state_undo(self->state) != CROWN_OK) return raise_state(self);
    Py_RETURN_NONE;
}

/* The action indices applied, oldest first, in a new array (PyMem_Free it), or NULL with
 * an exception. */
static int *history_of(StateObject *self, int *count) {
    int n = crown_state_undo_depth(self->state);
    int *actions = PyMem_Malloc(sizeof *actions * (size_t)(n ? n : 1));
    if (!actions) {
        PyErr_NoMemory();
        return NULL;
    }
    if (crown_state_history_indices(self->state, actions, n, count) != CROWN_OK) {
        PyMem_Free(actions);
        raise_state(self);
        return NULL;
    }
    return actions;
}

/* pyspiel's undo_action(player, action) names the player too; crown's states know who
 * acted, so the action alone is checked against the last one applied. */
static PyObject *state_undo_action(PyObject *obj, PyObject *const *args, Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    int a, n = 0;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "undo_action takes (action) or (player, action)");
        return NULL;
    }
    if (to_action(obj, args[nargs - 1], &a) < 0) return NULL;
    long player = 0;
    if (nargs == 2 && (player = PyLong_AsLong(args[0])) == -1 && PyErr_Occurred()) return NULL;
    int *history = history_of(self, &n);
    if (!history) return NULL;
    int last = n ? history[n - 1] : -1;
    PyMem_Free(history);
    if (n > 0 && last != a)
        return raise_crown(Py_TYPE(obj), CROWN_ERROR_ILLEGAL,
                           "that action is not the last action applied");
    if (crown_state_undo(self->state) != CROWN_OK) return raise_state(self);
    long who = spiel_player(crown_state_to_move(self->state));
    if (nargs == 2 && who != player) {
        /* Played again at once: legal, since it was just taken back, so no trace is left. */
        crown_state_apply_index(self->state, a);
        PyErr_Format(state_of_type(Py_TYPE(obj))->error,
                     "%s: the last action was played by player %ld, not %ld",
                     crown_status_name(CROWN_ERROR_ILLEGAL), who, player);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *state_history(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    int count = 0;
    int *actions = history_of(self, &count);
    if (!actions) return NULL;
    PyObject *list = action_list(self->game, actions, count);
    PyMem_Free(actions);
    return list;
}

static PyObject *state_history_length(PyObject *obj, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(crown_state_undo_depth(((StateObject *)obj)->state));
}

static PyObject *state_clone(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    crown_state *copy = NULL;
    crown_error err;
    int rc = crown_state_clone(self->state, &copy, &err);
    if (rc != CROWN_OK) return raise_crown(Py_TYPE(obj), rc, err.message);
    return new_state(self->game, copy);
}

/* copy.deepcopy(state): a clone, which shares nothing with the state but its game. */
static PyObject *state_deepcopy(PyObject *obj, PyObject *memo) {
    (void)memo;
    return state_clone(obj, NULL);
}

/* The returns into values[0..players); pyspiel gives zeros while the game goes on, and
 * so does this. -1 with an exception on failure. */
static int returns_of(StateObject *self, double *values, int *players) {
    *players = crown_game_players(crown_state_game(self->state));
    for (int i = 0; i < CROWN_MAX_PLAYERS; i++) values[i] = 0.0;
    if (crown_state_is_over(self->state) &&
        crown_state_returns(self->state, values, CROWN_MAX_PLAYERS) != CROWN_OK) {
        raise_state(self);
        return -1;
    }
    return 0;
}

static PyObject *state_returns(PyObject *obj, PyObject *unused) {
    (void)unused;
    double values[CROWN_MAX_PLAYERS];
    int players = 0;
    if (returns_of((StateObject *)obj, values, &players) < 0) return NULL;
    PyObject *list = PyList_New(players);
    if (!list) return NULL;
    for (int i = 0; i < players; i++) {
        PyObject *v = PyFloat_FromDouble(values[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *state_player_return(PyObject *obj, PyObject *arg) {
    double values[CROWN_MAX_PLAYERS];
    int players = 0;
    long player = PyLong_AsLong(arg);
    if (player == -1 && PyErr_Occurred()) return NULL;
    if (returns_of((StateObject *)obj, values, &players) < 0) return NULL;
    if (player < 0 || player >= players) {
        PyErr_Format(state_of_type(Py_TYPE(obj))->error, "%s: player %ld is not a seat 0..%d",
                     crown_status_name(CROWN_ERROR_ARGUMENT), player, players - 1);
        return NULL;
    }
    return PyFloat_FromDouble(values[player]);
}

static PyObject *state_is_player_node(PyObject *obj, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(crown_state_to_move(((StateObject *)obj)->state) >= 0);
}

/* action_to_string(action) or pyspiel's action_to_string(player, action); the player
 * changes nothing, as an index names its action for every player. */
static PyObject *state_action_to_string(PyObject *obj, PyObject *const *args, Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    int index;
    crown_action a;
    const char *text = NULL;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "action_to_string takes (action) or (player, action)");
        return NULL;
    }
    if (to_action(obj, args[nargs - 1], &index) < 0) return NULL;
    if (crown_state_index_action(self->state, index, &a) != CROWN_OK ||
        crown_action_to_text(self->state, a, &text) != CROWN_OK)
        return raise_state(self);
    return PyUnicode_FromString(text);
}

static PyObject *state_string_to_action(PyObject *obj, PyObject *arg) {
    StateObject *self = (StateObject *)obj;
    const char *text = PyUnicode_AsUTF8(arg);
    crown_action a;
    int index;
    if (!text) return NULL;
    if (crown_action_from_text(self->state, text, &a) != CROWN_OK ||
        crown_state_action_index(self->state, a, &index) != CROWN_OK)
        return raise_state(self);
    return action_int((GameObject *)self->game, index);
}

/* The optional observer argument (observations, result_words): a seat, or None for a
 * spectator; when left out, `fallback`. */
static int to_observer(PyObject *const *args, Py_ssize_t nargs, int fallback, int *observer) {
    *observer = fallback;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "this takes at most one player (None: a spectator)");
        return -1;
    }
    if (nargs == 0) return 0;
    *observer = CROWN_PLAYER_NONE;
    if (args[0] == Py_None) return 0;
    long player = PyLong_AsLong(args[0]);
    if (player == -1 && PyErr_Occurred()) return -1;
    if (player < INT32_MIN || player > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "the player is out of range");
        return -1;
    }
    *observer = (int)player;
    return 0;
}

/* pyspiel's observer when none is named: the player to act; a spectator at chance nodes
 * and at the end, where no player acts. */
static int mover_or_spectator(StateObject *self) {
    int who = crown_state_to_move(self->state);
    return who >= 0 ? who : CROWN_PLAYER_NONE;
}

/* resample_from_infostate's C half: everything `observer` cannot see drawn again. */
static PyObject *state_resample(PyObject *obj, PyObject *const *args, Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    long observer;
    unsigned long long seed;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "_resample takes (observer, seed)");
        return NULL;
    }
    if ((observer = PyLong_AsLong(args[0])) == -1 && PyErr_Occurred()) return NULL;
    if ((seed = PyLong_AsUnsignedLongLongMask(args[1])) == (unsigned long long)-1 &&
        PyErr_Occurred())
        return NULL;
    if (observer < INT32_MIN || observer > INT32_MAX)
        return raise_crown(Py_TYPE(obj), CROWN_ERROR_ARGUMENT, "the observer is out of range");
    if (crown_state_resample(self->state, (int)observer, seed) != CROWN_OK)
        return raise_state(self);
    Py_RETURN_NONE;
}

static PyObject *state_observation_string(PyObject *obj, PyObject *const *args,
                                          Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    int observer;
    const char *text = NULL;
    if (to_observer(args, nargs, mover_or_spectator(self), &observer) < 0) return NULL;
    if (crown_state_observation_json(self->state, observer, &text) != CROWN_OK)
        return raise_state(self);
    return PyUnicode_FromString(text);
}

/* A float32 numpy array of the game's shape, filled through a bytearray that numpy then
 * owns, so the module needs numpy only at run time. */
static PyObject *state_observation_tensor(PyObject *obj, PyObject *const *args,
                                          Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    ModState *mod = state_of_type(Py_TYPE(obj));
    int observer, dims[CROWN_OBS_MAX_DIMS], ndims = 0;
    crown_error err;
    if (to_observer(args, nargs, mover_or_spectator(self), &observer) < 0) return NULL;
    int rc = crown_game_observation_shape(crown_state_game(self->state), dims,
                                          CROWN_OBS_MAX_DIMS, &ndims, &err);
    if (rc != CROWN_OK) return raise_crown(Py_TYPE(obj), rc, err.message);
    size_t n = 1;
    for (int i = 0; i < ndims; i++) n *= (size_t)dims[i];
    PyObject *buf = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(float)));
    if (!buf) return NULL;
    if (crown_state_observation_tensor(self->state, observer,
                                       (float *)(void *)PyByteArray_AS_STRING(buf),
                                       n) != CROWN_OK) {
        Py_DECREF(buf);
        return raise_state(self);
    }
    if (!mod->numpy && !(mod->numpy = PyImport_ImportModule("numpy"))) {
        Py_DECREF(buf);
        return NULL;
    }
    PyObject *flat = PyObject_CallMethod(mod->numpy, "frombuffer", "Os", buf, "float32");
    Py_DECREF(buf);
    if (!flat) return NULL;
    PyObject *shape = PyTuple_New(ndims);
    if (!shape) {
        Py_DECREF(flat);
        return NULL;
    }
    for (int i = 0; i < ndims; i++) PyTuple_SET_ITEM(shape, i, PyLong_FromLong(dims[i]));
    if (PyErr_Occurred()) {
        Py_DECREF(shape);
        Py_DECREF(flat);
        return NULL;
    }
    PyObject *out = PyObject_CallMethod(flat, "reshape", "O", shape);
    Py_DECREF(shape);
    Py_DECREF(flat);
    return out;
}

static PyObject *state_position(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    const char *text = NULL;
    if (crown_state_format(self->state, &text) != CROWN_OK) return raise_state(self);
    return PyUnicode_FromString(text);
}

static PyObject *state_set_position(PyObject *obj, PyObject *arg) {
    StateObject *self = (StateObject *)obj;
    const char *text = PyUnicode_AsUTF8(arg);
    if (!text) return NULL;
    if (crown_state_parse(self->state, text) != CROWN_OK) return raise_state(self);
    Py_RETURN_NONE;
}

static PyObject *state_hash(PyObject *obj, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(crown_state_hash(((StateObject *)obj)->state));
}

static PyObject *state_perft(PyObject *obj, PyObject *arg) {
    StateObject *self = (StateObject *)obj;
    long depth = PyLong_AsLong(arg);
    uint64_t count = 0;
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth < 0 || depth > 64)
        return raise_crown(Py_TYPE(obj), CROWN_ERROR_ARGUMENT, "perft depth must be 0..64");
    crown_state *work = NULL;
    crown_error err;
    int rc = crown_state_clone(self->state, &work, &err);
    if (rc != CROWN_OK) return raise_crown(Py_TYPE(obj), rc, err.message);
    Py_BEGIN_ALLOW_THREADS rc = crown_state_perft(work, (int)depth, &count);
    Py_END_ALLOW_THREADS
    if (rc != CROWN_OK) raise_crown(Py_TYPE(obj), rc, crown_state_errmsg(work));
    crown_state_free(work);
    return rc == CROWN_OK ? PyLong_FromUnsignedLongLong(count) : NULL;
}

static PyObject *state_result_text(PyObject *obj, PyObject *unused) {
    (void)unused;
    StateObject *self = (StateObject *)obj;
    const char *text = NULL;
    if (crown_state_result_text(self->state, &text) != CROWN_OK) return raise_state(self);
    return PyUnicode_FromString(text);
}

static PyObject *state_result_words(PyObject *obj, PyObject *const *args, Py_ssize_t nargs) {
    StateObject *self = (StateObject *)obj;
    int viewer;
    const char *text = NULL;
    if (to_observer(args, nargs, CROWN_PLAYER_NONE, &viewer) < 0) return NULL;
    if (crown_state_result_words(self->state, viewer, &text) != CROWN_OK)
        return raise_state(self);
    return PyUnicode_FromString(text);
}

static PyObject *state_str(PyObject *obj) {
    StateObject *self = (StateObject *)obj;
    const char *text = NULL;
    if (crown_state_render(self->state, &text) != CROWN_OK) return raise_state(self);
    return PyUnicode_FromString(text);
}

static PyObject *state_get_game(PyObject *obj, PyObject *unused) {
    (void)unused;
    PyObject *game = ((StateObject *)obj)->game;
    Py_INCREF(game);
    return game;
}

static PyMethodDef state_methods[] = {
    {"current_player", state_current_player, METH_NOARGS,
     "The player to move, crown.CHANCE_PLAYER or crown.TERMINAL_PLAYER."},
    {"is_terminal", state_is_terminal, METH_NOARGS, "Whether the game is over."},
    {"is_chance_node", state_is_chance_node, METH_NOARGS, "Whether chance acts next."},
    {"legal_actions", (PyCFunction)(void (*)(void))state_legal_actions, METH_FASTCALL,
     "The legal actions, in a fixed order (of `player` only if given)."},
    {"chance_outcomes", state_chance_outcomes, METH_NOARGS,
     "(action, probability) pairs at a chance node."},
    {"apply_action", state_apply_action, METH_O, "Plays a legal action."},
    {"apply_text", state_apply_text, METH_O,
     "Plays a move or a whole turn as typed ('A1-A4', 'c3-c5,c4')."},
    {"undo", state_undo, METH_NOARGS, "Takes back the last action."},
    {"undo_action", (PyCFunction)(void (*)(void))state_undo_action, METH_FASTCALL,
     "undo_action(action) or undo_action(player, action): takes back the last action, "
     "which must be that one."},
    {"history", state_history, METH_NOARGS, "The actions applied, oldest first."},
    {"history_length", state_history_length, METH_NOARGS, "How many actions undo can take back."},
    {"clone", state_clone, METH_NOARGS, "An independent copy, history included."},
    {"__copy__", state_clone, METH_NOARGS, "clone()."},
    {"__deepcopy__", state_deepcopy, METH_O, "clone()."},
    {"returns", state_returns, METH_NOARGS, "The value per player (zeros until the end)."},
    {"player_return", state_player_return, METH_O, "returns()[player]."},
    {"is_player_node", state_is_player_node, METH_NOARGS, "Whether a player acts next."},
    {"result_text", state_result_text, METH_NOARGS, "Why the game ended; '' while it goes on."},
    {"result_words", (PyCFunction)(void (*)(void))state_result_words, METH_FASTCALL,
     "The result as crown play says it, to a player (or neutral)."},
    {"action_to_string", (PyCFunction)(void (*)(void))state_action_to_string, METH_FASTCALL,
     "The notation of a legal action: (action) or (player, action)."},
    {"_resample", (PyCFunction)(void (*)(void))state_resample, METH_FASTCALL,
     "_resample(observer, seed): draws again what observer cannot see."},
    {"string_to_action", state_string_to_action, METH_O, "The legal action a notation names."},
    {"observation_string", (PyCFunction)(void (*)(void))state_observation_string, METH_FASTCALL,
     "The observation of a player (or a spectator) as JSON."},
    {"observation_tensor", (PyCFunction)(void (*)(void))state_observation_tensor, METH_FASTCALL,
     "The observation of a player (or a spectator) as a float32 numpy array."},
    {"position", state_position, METH_NOARGS, "The position text."},
    {"set_position", state_set_position, METH_O, "Sets the position from its text."},
    {"hash", state_hash, METH_NOARGS, "A 64-bit key of the position."},
    {"perft", state_perft, METH_O, "Counts the action sequences depth deep (GIL released)."},
    {"get_game", state_get_game, METH_NOARGS, "The game of this state."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot state_slots[] = {
    {Py_tp_dealloc, (void *)state_dealloc},
    {Py_tp_methods, state_methods},
    {Py_tp_str, (void *)state_str},
    {Py_tp_doc, (char *)"A position with its history; made by Game.new_initial_state."},
    {0, NULL},
};

static PyType_Spec state_spec = {"crown.State", sizeof(StateObject), 0, Py_TPFLAGS_DEFAULT,
                                 state_slots};

/* ---- Agent --------------------------------------------------------------------------- */

/* Agent(spec, seed=0, depth=0, nodes=0, iterations=0, movetime_ms=0): the C agent needs
 * its game, so it is made on the first step and made again when the game changes. */
static int agent_init(PyObject *obj, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"spec", "seed", "depth", "nodes", "iterations", "movetime_ms", NULL};
    AgentObject *self = (AgentObject *)obj;
    const char *spec = NULL;
    unsigned long long seed = 0;
    int depth = 0;
    long long nodes = 0, iterations = 0, movetime_ms = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|KiLLL", kwlist, &spec, &seed, &depth,
                                     &nodes, &iterations, &movetime_ms))
        return -1;
    if (self->thinking) {
        raise_crown(Py_TYPE(self), CROWN_ERROR_CONFLICT,
                    "this agent is thinking in another thread");
        return -1;
    }
    char *copy = PyMem_Malloc(strlen(spec) + 1);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    strcpy(copy, spec);
    PyMem_Free(self->spec);
    crown_agent_free(self->agent);
    self->agent = NULL;
    Py_CLEAR(self->game);
    self->spec = copy;
    self->seed = seed;
    self->depth = depth;
    self->nodes = iterations ? iterations : nodes;
    self->movetime_ms = movetime_ms;
    return 0;
}

static void agent_dealloc(PyObject *obj) {
    PyTypeObject *type = Py_TYPE(obj);
    AgentObject *self = (AgentObject *)obj;
    crown_agent_free(self->agent);
    Py_XDECREF(self->game);
    PyMem_Free(self->spec);
    type->tp_free(obj);
    Py_DECREF(type);
}

static int agent_ready(AgentObject *self, PyObject *game) {
    if (self->thinking) {
        raise_crown(Py_TYPE(self), CROWN_ERROR_CONFLICT,
                    "this agent is already thinking in another thread");
        return -1;
    }
    if (self->agent && self->game == game) return 0;
    if (!self->spec) {
        PyErr_SetString(PyExc_RuntimeError, "Agent.__init__ was not called");
        return -1;
    }
    crown_agent *agent = NULL;
    crown_error err;
    int rc = crown_agent_new(((GameObject *)game)->game, self->spec, self->seed, &agent, &err);
    if (rc != CROWN_OK) {
        raise_crown(Py_TYPE(self), rc, err.message);
        return -1;
    }
    if ((self->depth || self->nodes || self->movetime_ms) &&
        crown_agent_set_limits(agent, self->depth, self->nodes, self->movetime_ms) != CROWN_OK) {
        raise_crown(Py_TYPE(self), crown_agent_errcode(agent), crown_agent_errmsg(agent));
        crown_agent_free(agent);
        return -1;
    }
    crown_agent_free(self->agent);
    self->agent = agent;
    Py_INCREF(game);
    Py_XSETREF(self->game, game);
    return 0;
}

/* The agent's last principal variation as indices into self->pv, played out on `work`,
 * the position it starts from (then changed). */
static void agent_index_pv(AgentObject *self, crown_state *work) {
    crown_action pv[CROWN_MAX_PV];
    int n = 0;
    self->npv = 0;
    if (crown_agent_last_pv(self->agent, pv, CROWN_MAX_PV, &n) != CROWN_OK) return;
    for (int i = 0; i < n; i++)
        if (crown_state_action_index(work, pv[i], &self->pv[self->npv]) != CROWN_OK ||
            crown_state_apply(work, pv[i]) != CROWN_OK || ++self->npv == CROWN_MAX_PV)
            break;
}

/* Thinks without the GIL on a clone of the state, so that other threads may use the
 * state meanwhile; 0 and *best (an action index), or -1 with an exception. */
static int agent_think(AgentObject *self, PyObject *arg, int *best) {
    ModState *mod = state_of_type(Py_TYPE(self));
    if (!PyObject_TypeCheck(arg, mod->state_type)) {
        PyErr_SetString(PyExc_TypeError, "Agent.step takes a crown.State");
        return -1;
    }
    StateObject *state = (StateObject *)arg;
    if (agent_ready(self, state->game) < 0) return -1;
    crown_state *work = NULL;
    crown_error err;
    int rc = crown_state_clone(state->state, &work, &err);
    if (rc != CROWN_OK) {
        raise_mod(mod, rc, err.message);
        return -1;
    }
    crown_action action = 0;
    self->thinking = 1;
    Py_BEGIN_ALLOW_THREADS rc = crown_agent_think(self->agent, work, &action);
    Py_END_ALLOW_THREADS
    self->thinking = 0;
    if (rc != CROWN_OK) {
        crown_state_free(work);
        raise_mod(mod, rc, crown_agent_errmsg(self->agent));
        return -1;
    }
    rc = crown_state_action_index(work, action, best);
    if (rc != CROWN_OK) raise_mod(mod, rc, crown_state_errmsg(work));
    else agent_index_pv(self, work);
    crown_state_free(work);
    return rc == CROWN_OK ? 0 : -1;
}

static PyObject *agent_step(PyObject *obj, PyObject *arg) {
    int best = 0;
    if (agent_think((AgentObject *)obj, arg, &best) < 0) return NULL;
    return action_int((GameObject *)((AgentObject *)obj)->game, best);
}

/* The last think's value: alpha-beta's score in centi-units as an int, else (MCTS and the
 * others) their mean return or value as a float; None before any step. */
static PyObject *agent_last_score(PyObject *obj, PyObject *unused) {
    (void)unused;
    AgentObject *self = (AgentObject *)obj;
    int score = 0;
    double value = 0.0;
    if (!self->agent) Py_RETURN_NONE;
    if (crown_agent_last_score(self->agent, &score, &value)) return PyLong_FromLong(score);
    return PyFloat_FromDouble(value);
}

static PyObject *agent_last_pv(PyObject *obj, PyObject *unused) {
    (void)unused;
    AgentObject *self = (AgentObject *)obj;
    if (!self->agent) return PyList_New(0);
    return action_list(self->game, self->pv, self->npv);
}

/* step, then (action, score, principal variation) as last_score and last_pv give them. */
static PyObject *agent_step_with_info(PyObject *obj, PyObject *arg) {
    int best = 0;
    if (agent_think((AgentObject *)obj, arg, &best) < 0) return NULL;
    PyObject *action = action_int((GameObject *)((AgentObject *)obj)->game, best);
    PyObject *score = action ? agent_last_score(obj, NULL) : NULL;
    PyObject *pv = score ? agent_last_pv(obj, NULL) : NULL;
    PyObject *out = pv ? PyTuple_Pack(3, action, score, pv) : NULL;
    Py_XDECREF(action);
    Py_XDECREF(score);
    Py_XDECREF(pv);
    return out;
}

/* From another thread while step runs: the step returns soon with its best so far. */
static PyObject *agent_stop(PyObject *obj, PyObject *unused) {
    (void)unused;
    AgentObject *self = (AgentObject *)obj;
    if (self->agent) crown_agent_stop(self->agent);
    Py_RETURN_NONE;
}

static PyObject *agent_describe(PyObject *obj, PyObject *arg) {
    AgentObject *self = (AgentObject *)obj;
    ModState *mod = state_of_type(Py_TYPE(obj));
    const char *text = NULL;
    if (!PyObject_TypeCheck(arg, mod->game_type)) {
        PyErr_SetString(PyExc_TypeError, "Agent.describe takes a crown.Game");
        return NULL;
    }
    if (agent_ready(self, arg) < 0) return NULL;
    if (crown_agent_describe(self->agent, &text) != CROWN_OK)
        return raise_crown(Py_TYPE(obj), crown_agent_errcode(self->agent),
                           crown_agent_errmsg(self->agent));
    return PyUnicode_FromString(text);
}

static PyObject *agent_last_nodes(PyObject *obj, PyObject *unused) {
    (void)unused;
    AgentObject *self = (AgentObject *)obj;
    return PyLong_FromUnsignedLongLong(self->agent ? crown_agent_last_nodes(self->agent) : 0);
}

static PyObject *agent_last_depth(PyObject *obj, PyObject *unused) {
    (void)unused;
    AgentObject *self = (AgentObject *)obj;
    return PyLong_FromLong(self->agent ? crown_agent_last_depth(self->agent) : 0);
}

static PyMethodDef agent_methods[] = {
    {"step", agent_step, METH_O, "Chooses an action for the player to move (GIL released)."},
    {"step_with_info", agent_step_with_info, METH_O,
     "step, returning (action, score, principal variation)."},
    {"last_score", agent_last_score, METH_NOARGS,
     "The last step's value: alpha-beta centi-units (int) or MCTS mean return (float)."},
    {"last_pv", agent_last_pv, METH_NOARGS, "The last step's principal variation."},
    {"stop", agent_stop, METH_NOARGS, "Makes a running step (in another thread) return soon."},
    {"describe", agent_describe, METH_O, "What the agent runs on a game."},
    {"last_nodes", agent_last_nodes, METH_NOARGS, "Nodes or iterations of the last step."},
    {"last_depth", agent_last_depth, METH_NOARGS, "Depth reached by the last step."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot agent_slots[] = {
    {Py_tp_init, (void *)agent_init},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_dealloc, (void *)agent_dealloc},
    {Py_tp_methods, agent_methods},
    {Py_tp_doc, (char *)"Agent(spec, seed=0, depth=0, nodes=0, iterations=0, movetime_ms=0): a "
                "player program such as 'ai:7', 'ab', 'mcts', 'random'."},
    {0, NULL},
};

static PyType_Spec agent_spec = {"crown.Agent", sizeof(AgentObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, agent_slots};

/* ---- Module -------------------------------------------------------------------------- */

static PyObject *mod_games(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    int n = crown_game_count();
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyUnicode_FromString(crown_game_names(i)));
    if (PyErr_Occurred()) Py_CLEAR(list); /* a name that could not be made: a NULL item */
    return list;
}

/* load_game(name, {"max-plies": 200}): option values may be any object; str() of it is
 * what the rules read. */
static PyObject *mod_load_game(PyObject *module, PyObject *args) {
    ModState *mod = PyModule_GetState(module);
    const char *name = NULL;
    PyObject *options = NULL;
    if (!PyArg_ParseTuple(args, "s|O!", &name, &PyDict_Type, &options)) return NULL;
    Py_ssize_t n = options ? PyDict_Size(options) : 0, pos = 0, i = 0;
    const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
    const char **values = PyMem_Calloc((size_t)n + 1, sizeof *values);
    PyObject *strs = PyList_New(0); /* keeps the value texts alive */
    PyObject *result = NULL, *key, *value;
    if (!names || !values || !strs) {
        PyErr_NoMemory();
        goto done;
    }
    while (options && PyDict_Next(options, &pos, &key, &value)) {
        PyObject *text = PyObject_Str(value);
        if (!text || PyList_Append(strs, text) < 0) {
            Py_XDECREF(text);
            goto done;
        }
        Py_DECREF(text);
        if (!(names[i] = PyUnicode_AsUTF8(key)) || !(values[i] = PyUnicode_AsUTF8(text)))
            goto done;
        i++;
    }
    crown_game *game = NULL;
    crown_error err;
    int rc = crown_game_new(name, names, values, (int)n, &game, &err);
    if (rc != CROWN_OK) {
        raise_mod(mod, rc, err.message);
        goto done;
    }
    GameObject *obj = PyObject_New(GameObject, mod->game_type);
    if (!obj) {
        crown_game_free(game);
        goto done;
    }
    obj->game = game;
    obj->ints = NULL;
    obj->nints = 0;
    result = (PyObject *)obj;
done:
    PyMem_Free(names);
    PyMem_Free(values);
    Py_XDECREF(strs);
    return result;
}

static PyObject *mod_parse_position(PyObject *module, PyObject *args) {
    ModState *mod = PyModule_GetState(module);
    PyObject *game = NULL;
    const char *text = NULL;
    if (!PyArg_ParseTuple(args, "O!s", mod->game_type, &game, &text)) return NULL;
    crown_state *state = NULL;
    crown_error err;
    int rc = crown_state_new(((GameObject *)game)->game, 0, &state, &err);
    if (rc != CROWN_OK) return raise_mod(mod, rc, err.message);
    if (crown_state_parse(state, text) != CROWN_OK) {
        raise_mod(mod, crown_state_errcode(state), crown_state_errmsg(state));
        crown_state_free(state);
        return NULL;
    }
    return new_state(game, state);
}

static PyMethodDef mod_methods[] = {
    {"games", mod_games, METH_NOARGS, "The names of the registered games."},
    {"_load_game", mod_load_game, METH_VARARGS, "_load_game(name, options={}): a crown.Game."},
    {"parse_position", mod_parse_position, METH_VARARGS,
     "parse_position(game, text): a crown.State at that position."},
    {NULL, NULL, 0, NULL},
};

/* The rest of pyspiel's contract, written in Python over the methods above because none
 * of it is on a hot path: its enums, the game's type, load_game's "name(option=value)",
 * and the state calls that a clone, the history or the observation already answer
 * (child, masks, serialization and pickling, information states). Run once into the
 * module's namespace when it is imported. */
static const char spiel_layer[] =
    "import enum as _enum, collections as _collections\n"
    "class PlayerId(_enum.IntEnum):\n"
    "    DEFAULT_PLAYER_ID = 0\n"
    "    CHANCE = CHANCE_PLAYER\n"
    "    SIMULTANEOUS = SIMULTANEOUS_PLAYER\n"
    "    INVALID = INVALID_PLAYER\n"
    "    TERMINAL = TERMINAL_PLAYER\n"
    "class GameType:\n"
    "    Dynamics = _enum.Enum('Dynamics', [('SIMULTANEOUS', 0), ('SEQUENTIAL', 1), ('MEAN_FIELD', 2)])\n"
    "    ChanceMode = _enum.Enum('ChanceMode', [('DETERMINISTIC', 0), ('EXPLICIT_STOCHASTIC', 1),\n"
    "                                           ('SAMPLED_STOCHASTIC', 2)])\n"
    "    Information = _enum.Enum('Information', [('ONE_SHOT', 0), ('PERFECT_INFORMATION', 1),\n"
    "                                             ('IMPERFECT_INFORMATION', 2)])\n"
    "    Utility = _enum.Enum('Utility', [('ZERO_SUM', 0), ('CONSTANT_SUM', 1), ('GENERAL_SUM', 2),\n"
    "                                     ('IDENTICAL', 3)])\n"
    "    RewardModel = _enum.Enum('RewardModel', [('REWARDS', 0), ('TERMINAL', 1)])\n"
    "    def __init__(self, **fields):\n"
    "        self.__dict__.update(fields)\n"
    "    def __repr__(self):\n"
    "        return 'GameType(%r)' % self.short_name\n"
    "PlayerAction = _collections.namedtuple('PlayerAction', 'player action')\n"
    "def load_game(name, params=None):\n"
    "    if params is None and name.endswith(')') and '(' in name:\n"
    "        name, _, inner = name[:-1].partition('(')\n"
    "        params = {}\n"
    "        for item in filter(None, inner.split(',')):\n"
    "            key, eq, value = item.partition('=')\n"
    "            if not eq:\n"
    "                raise Error('parse error: option %r has no value (name=value)' % item)\n"
    "            params[key] = value\n"
    "    return _load_game(name, params) if params else _load_game(name)\n"
    "def registered_names():\n"
    "    return games()\n"
    "def _game_str(self):\n"
    "    return '%s(%s)' % (self.name(), ','.join('%s=%s' % kv for kv in self.parameters().items()))\n"
    "def _player_counts(self):\n"
    "    # The counts the game's \"players\" option accepts, asked of the game itself.\n"
    "    if 'players' not in self.parameters():\n"
    "        return [self.num_players()]\n"
    "    counts = []\n"
    "    for k in range(1, 5):\n"
    "        try:\n"
    "            _load_game(self.name(), {'players': k})\n"
    "            counts.append(k)\n"
    "        except Error:\n"
    "            pass\n"
    "    return counts\n"
    "def _get_type(self):\n"
    "    counts = _player_counts(self)\n"
    "    return GameType(short_name=self.name(), long_name=self.name(),\n"
    "        dynamics=GameType.Dynamics.SEQUENTIAL,\n"
    "        chance_mode=GameType.ChanceMode.EXPLICIT_STOCHASTIC if self.max_chance_outcomes()\n"
    "            else GameType.ChanceMode.DETERMINISTIC,\n"
    "        information=GameType.Information.PERFECT_INFORMATION if self._perfect_information()\n"
    "            else GameType.Information.IMPERFECT_INFORMATION,\n"
    "        utility=GameType.Utility.ZERO_SUM, reward_model=GameType.RewardModel.TERMINAL,\n"
    "        max_num_players=max(counts), min_num_players=min(counts), default_loadable=True,\n"
    "        provides_information_state_string=True, provides_information_state_tensor=True,\n"
    "        provides_observation_string=True, provides_observation_tensor=True,\n"
    "        provides_factored_observation_string=False,\n"
    "        parameter_specification=_load_game(self.name()).parameters())\n"
    "def _tensor_size(self):\n"
    "    size = 1\n"
    "    for d in self.observation_tensor_shape():\n"
    "        size *= d\n"
    "    return size\n"
    "def _deserialize_state(self, text):\n"
    "    position, _, actions = text.rpartition('\\nactions')\n"
    "    state = parse_position(self, position)\n"
    "    for a in actions.split():\n"
    "        state.apply_action(int(a))\n"
    "    return state\n"
    "Game.get_type = _get_type\n"
    "Game.__str__ = _game_str\n"
    "Game.__reduce__ = lambda self: (load_game, (str(self),))\n"
    "Game.__eq__ = lambda self, other: isinstance(other, Game) and str(self) == str(other)\n"
    "Game.__hash__ = lambda self: hash(str(self))\n"
    "Game.get_parameters = Game.parameters\n"
    "Game.min_utility = lambda self: -1.0\n"
    "Game.max_utility = lambda self: 1.0\n"
    "Game.utility_sum = lambda self: 0.0\n"
    "Game.observation_tensor_size = _tensor_size\n"
    "Game.information_state_tensor_shape = Game.observation_tensor_shape\n"
    "Game.information_state_tensor_size = _tensor_size\n"
    "Game.policy_tensor_shape = lambda self: [self.num_distinct_actions()]\n"
    "Game.deserialize_state = _deserialize_state\n"
    "def _start(state):\n"
    "    start = state.clone()\n"
    "    for _ in range(start.history_length()):\n"
    "        start.undo()\n"
    "    return start\n"
    "def _mask(self, player=None):\n"
    "    game = self.get_game()\n"
    "    size = game.max_chance_outcomes() if self.is_chance_node() else game.num_distinct_actions()\n"
    "    mask = [0] * size\n"
    "    for a in (self.legal_actions() if player is None else self.legal_actions(player)):\n"
    "        mask[a] = 1\n"
    "    return mask\n"
    "def _child(self, action):\n"
    "    child = self.clone()\n"
    "    child.apply_action(action)\n"
    "    return child\n"
    "def _full_history(self):\n"
    "    replay, out = _start(self), []\n"
    "    for a in self.history():\n"
    "        out.append(PlayerAction(replay.current_player(), a))\n"
    "        replay.apply_action(a)\n"
    "    return out\n"
    "def _serialize(self):\n"
    "    return '%s\\nactions %s' % (_start(self).position(), ' '.join(map(str, self.history())))\n"
    "def _observer(self, player):\n"
    "    if player is None:\n"
    "        player = self.current_player()\n"
    "    if not 0 <= player < self.get_game().num_players():\n"
    "        raise Error('argument error: player %r is not a seat' % (player,))\n"
    "    return player\n"
    "def _infostate_string(self, player=None):\n"
    "    player = _observer(self, player)\n"
    "    return '%s\\n%s' % (_start(self).observation_string(player), self.history())\n"
    "def _infostate_tensor(self, player=None):\n"
    "    return self.observation_tensor(_observer(self, player))\n"
    "def _resample(self, player, sampler):\n"
    "    copy = self.clone()\n"
    "    copy._resample(player, int(sampler() * 2.0 ** 63))\n"
    "    return copy\n"
    "State.legal_actions_mask = _mask\n"
    "State.child = _child\n"
    "State.rewards = State.returns\n"
    "State.move_number = State.history_length\n"
    "State.is_simultaneous_node = lambda self: False\n"
    "State.is_initial_state = lambda self: self.history_length() == 0\n"
    "State.full_history = _full_history\n"
    "State.serialize = _serialize\n"
    "State.information_state_string = _infostate_string\n"
    "State.information_state_tensor = _infostate_tensor\n"
    "State.resample_from_infostate = _resample\n"
    "def _restore_state(game, text):\n"
    "    return game.deserialize_state(text)\n"
    "State.__reduce__ = lambda self: (_restore_state, (self.get_game(), self.serialize()))\n"
    "State.__repr__ = State.__str__\n";

static int mod_exec(PyObject *module) {
    ModState *mod = PyModule_GetState(module);
    mod->error = PyErr_NewExceptionWithDoc("crown.Error",
                                           "A failed crown call, with crown's message.",
                                           PyExc_ValueError, NULL);
    if (!mod->error || PyModule_AddObjectRef(module, "Error", mod->error) < 0) return -1;
    mod->game_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &game_spec, NULL);
    mod->state_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &state_spec, NULL);
    mod->agent_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &agent_spec, NULL);
    if (!mod->game_type || !mod->state_type || !mod->agent_type) return -1;
    if (PyModule_AddType(module, mod->game_type) < 0 ||
        PyModule_AddType(module, mod->state_type) < 0 ||
        PyModule_AddType(module, mod->agent_type) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "CHANCE_PLAYER", SPIEL_CHANCE) < 0 ||
        PyModule_AddIntConstant(module, "SIMULTANEOUS_PLAYER", SPIEL_SIMULTANEOUS) < 0 ||
        PyModule_AddIntConstant(module, "INVALID_PLAYER", SPIEL_INVALID) < 0 ||
        PyModule_AddIntConstant(module, "TERMINAL_PLAYER", SPIEL_TERMINAL) < 0 ||
        PyModule_AddStringConstant(module, "__version__", crown_version()) < 0)
        return -1;
    PyObject *done = PyRun_String(spiel_layer, Py_file_input, PyModule_GetDict(module),
                                  PyModule_GetDict(module));
    Py_XDECREF(done);
    return done ? 0 : -1;
}

static int mod_traverse(PyObject *module, visitproc visit, void *arg) {
    ModState *mod = PyModule_GetState(module);
    Py_VISIT(mod->error);
    Py_VISIT(mod->game_type);
    Py_VISIT(mod->state_type);
    Py_VISIT(mod->agent_type);
    Py_VISIT(mod->numpy);
    return 0;
}

static int mod_clear(PyObject *module) {
    ModState *mod = PyModule_GetState(module);
    Py_CLEAR(mod->error);
    Py_CLEAR(mod->game_type);
    Py_CLEAR(mod->state_type);
    Py_CLEAR(mod->agent_type);
    Py_CLEAR(mod->numpy);
    return 0;
}

static void mod_free(void *module) { mod_clear(module); }

static PyModuleDef_Slot mod_slots[] = {
    {Py_mod_exec, (void *)mod_exec},
    {0, NULL},
};

static struct PyModuleDef crown_module = {
    PyModuleDef_HEAD_INIT, "crown", "The crown engine: rules, search and perft for the king games.",
    sizeof(ModState), mod_methods, mod_slots, mod_traverse, mod_clear, mod_free,
};

PyMODINIT_FUNC PyInit_crown(void);
PyMODINIT_FUNC PyInit_crown(void) { return PyModuleDef_Init(&crown_module); }
