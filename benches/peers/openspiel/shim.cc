// The random-play streams of benches/play.rs, written against OpenSpiel's go board
// (open_spiel/games/go/go_board.cc, compiled unchanged from OpenSpiel's source distribution by
// build.sh beside this file). The loop mirrors the Rust bench's `Stream` step for step (the
// same splitmix64 draws, the same list of empty points with the same swaps, the captured
// points put back in row-major order), so that under simple ko, suicide forbidden, the games
// are move for move those of goconform's reference: the bench checks it on whole games before
// it times anything. The whole loop is C++, compiled with -O3 and link-time optimisation
// together with go_board.cc (as the Rust side is built with fat LTO), so the board is timed
// without any call across languages or translation units per move.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "open_spiel/games/go/go_board.h"

namespace open_spiel {
// go_board.cc reports a broken invariant through SpielFatalError; the rest of spiel_utils.cc
// (and the abseil parts it needs) is not built, so the handler is defined here.
void SpielFatalError(const std::string& error_msg) {
  std::fprintf(stderr, "OpenSpiel: %s\n", error_msg.c_str());
  std::abort();
}
}  // namespace open_spiel

namespace {
using open_spiel::go::GoBoard;
using open_spiel::go::GoColor;
using open_spiel::go::kVirtualBoardPoints;
using open_spiel::go::kVirtualPass;
using open_spiel::go::OppColor;
using open_spiel::go::VirtualPoint;
using open_spiel::go::VirtualPointFrom2DPoint;

struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) {
    return static_cast<size_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
};

constexpr uint16_t kNoSlot = 0xFFFF;

// The four neighbours of a point of the 21x21 virtual board (go_board.h's layout), computed
// here so that the harness's own walks cost no call into go_board.cc.
inline std::array<VirtualPoint, 4> around(VirtualPoint p) {
  constexpr int kSide = open_spiel::go::kVirtualBoardSize;
  return {static_cast<VirtualPoint>(p - kSide), static_cast<VirtualPoint>(p - 1),
          static_cast<VirtualPoint>(p + 1), static_cast<VirtualPoint>(p + kSide)};
}

// The empty points with constant-time insertion and removal: `Empties` of the Rust bench.
struct Empties {
  std::vector<VirtualPoint> list;
  std::vector<uint16_t> slot = std::vector<uint16_t>(kVirtualBoardPoints + 2, kNoSlot);
  // The same points as bits of their virtual points, which ascend row by row: the uniform
  // workload lists legal plays in that order, visiting only empty points, without a branch
  // on whether a point is empty.
  std::vector<uint64_t> bits = std::vector<uint64_t>((kVirtualBoardPoints + 2 + 63) / 64, 0);
  void full(int size) {
    for (VirtualPoint p : list) slot[p] = kNoSlot;
    list.clear();
    std::fill(bits.begin(), bits.end(), 0);
    for (int row = 0; row < size; ++row)
      for (int col = 0; col < size; ++col) insert(VirtualPointFrom2DPoint({row, col}));
  }
  void insert(VirtualPoint p) {
    bits[p / 64] |= uint64_t{1} << (p % 64);
    slot[p] = static_cast<uint16_t>(list.size());
    list.push_back(p);
  }
  void remove(VirtualPoint p) {
    bits[p / 64] &= ~(uint64_t{1} << (p % 64));
    size_t i = slot[p];
    slot[p] = kNoSlot;
    VirtualPoint last = list.back();
    list.pop_back();
    if (last != p) {
      list[i] = last;
      slot[last] = static_cast<uint16_t>(i);
    }
  }
  void swap(size_t i, size_t j) {
    std::swap(list[i], list[j]);
    slot[list[i]] = static_cast<uint16_t>(i);
    slot[list[j]] = static_cast<uint16_t>(j);
  }
};

struct Stream {
  GoBoard board;
  Empties empties;
  SplitMix64 rng{0};
  int size;
  bool uniform;
  uint64_t cap, next_seed, moves = 0;
  int passes = 0;
  GoColor to_move = GoColor::kBlack;
  std::vector<VirtualPoint> captured, legal, stack;
  std::vector<uint32_t> mark = std::vector<uint32_t>(kVirtualBoardPoints + 2, 0);
  uint32_t stamp = 0;

  Stream(int size, bool uniform, uint64_t seed)
      : board(size), size(size), uniform(uniform), cap(3ull * size * size), next_seed(seed) {
    start();
  }

  void start() {
    board.Clear();
    empties.full(size);
    rng.s = next_seed++;
    moves = 0;
    passes = 0;
    to_move = GoColor::kBlack;
  }

  // The opposing strings the legal play at `p` captures, found before the play (each in atari
  // with `p` its last liberty), their stones appended to `captured`. go_board.h keeps its
  // strings private, so they are walked here by colour: a harness cost, paid only on
  // captures.
  void collect_captures(VirtualPoint p) {
    GoColor opp = OppColor(to_move);
    ++stamp;
    for (VirtualPoint q : around(p)) {
      if (board.PointColor(q) != opp || mark[q] == stamp || !board.InAtari(q)) continue;
      stack.clear();
      stack.push_back(q);
      mark[q] = stamp;
      while (!stack.empty()) {
        VirtualPoint s = stack.back();
        stack.pop_back();
        captured.push_back(s);
        for (VirtualPoint m : around(s)) {
          if (board.PointColor(m) == opp && mark[m] != stamp) {
            mark[m] = stamp;
            stack.push_back(m);
          }
        }
      }
    }
  }

  void make(VirtualPoint p) {
    captured.clear();
    collect_captures(p);
    board.PlayMove(p, to_move);
    to_move = OppColor(to_move);
    empties.remove(p);
    if (captured.size() > 1) std::sort(captured.begin(), captured.end());
    for (VirtualPoint q : captured) empties.insert(q);
  }

  // One move; true when it ended the game (and the next one has started).
  bool step() {
    bool played = false;
    if (uniform) {
      legal.clear();
      // Every empty point row by row (OpenSpiel's own list of legal actions judges every
      // point in that order, occupied ones too, which costs it more).
      for (size_t w = 0; w < empties.bits.size(); ++w) {
        for (uint64_t b = empties.bits[w]; b != 0; b &= b - 1) {
          VirtualPoint p = static_cast<VirtualPoint>(w * 64 + __builtin_ctzll(b));
          if (board.IsLegalMove(p, to_move)) legal.push_back(p);
        }
      }
      if (!legal.empty()) {
        make(legal[rng.below(legal.size())]);
        played = true;
      }
    } else {
      size_t live = empties.list.size();
      while (live > 0) {
        size_t i = rng.below(live);
        VirtualPoint p = empties.list[i];
        if (board.IsLegalMove(p, to_move)) {
          make(p);
          played = true;
          break;
        }
        --live;
        empties.swap(i, live);
      }
    }
    if (played) {
      passes = 0;
    } else {
      board.PlayMove(kVirtualPass, to_move);
      to_move = OppColor(to_move);
      ++passes;
    }
    ++moves;
    if (moves >= cap || passes >= 2) {
      start();
      return true;
    }
    return false;
  }
};
}  // namespace

// The library is built with hidden visibility (build.sh): only these entry points are
// exported, so every call inside it binds locally and inlines as in a program linked whole.
#define OSG_EXPORT __attribute__((visibility("default")))

extern "C" {
// The recipe this library was built by: 2 since build.sh hides every other symbol. The bench
// refuses a library without it (one built before, which held the board back).
OSG_EXPORT int osg_build() { return 2; }
OSG_EXPORT void* osg_new(int size, int uniform, uint64_t first_seed) {
  return new Stream(size, uniform != 0, first_seed);
}
OSG_EXPORT void osg_free(void* stream) { delete static_cast<Stream*>(stream); }
// Plays `moves` moves of the stream, starting a game with the next seed whenever one ends.
OSG_EXPORT void osg_run(void* stream, uint64_t moves) {
  Stream* s = static_cast<Stream*>(stream);
  for (uint64_t k = 0; k < moves; ++k) s->step();
}
// Plays the whole game of `seed` from an empty board; returns its number of moves.
OSG_EXPORT uint64_t osg_game(void* stream, uint64_t seed) {
  Stream* s = static_cast<Stream*>(stream);
  s->next_seed = seed;
  s->start();
  uint64_t n = 1;
  while (!s->step()) ++n;
  return n;
}
}
