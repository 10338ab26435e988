//! A second executor, written to be obviously right rather than fast, to keep the reference
//! honest.
//!
//! Nothing here is shared with the reference executor (`src/game/`, `src/board/`) beyond the
//! plain types of the trait (points, colours, rules, events, verdicts): the board is a grid of
//! optional stones, a string is found by flood fill every time it is needed, liberties are
//! counted afresh, and a repetition is found by comparing the whole grid against every
//! position of the game so far. No hashing, nothing incremental. The game is a log of the
//! legal moves made; who passed last, how many passes in a row, whether a resumption opened
//! with two passes and whether a play is a ko retake are all read off that log.
//!
//! It plays every value of every rules axis for board play, the ending and the count. It does
//! not keep a referee's record (moves standing although illegal, notices, rulings): it does
//! not claim [`Observable::Procedures`], so the harness never gives it such a scenario, and it
//! refuses those events as `no-procedure`.

use super::{Capabilities, EngineError, EngineInfo, Observable, Observation, Referee, Unsupported};
use crate::board::{Color, Move, Point};
use crate::game::{Event, Phase, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{
    Draws, Ending, HandicapCompensation, HandicapPlacement, KoRule, PassStones, Rules, Scoring,
    SekiEyes, SuicideRule, WhitePassesLast,
};

/// The board: `grid[row][col]`, row 0 at the bottom.
type Grid = Vec<Vec<Option<Color>>>;

/// One legal move or ending step, in the order they happened.
#[derive(Clone, Debug)]
enum Logged {
    Play {
        color: Color,
        at: Point,
        captured: Vec<Point>,
    },
    Pass(Color),
    /// A dispute resumed play (or the players agreed who moves under `play-on`).
    Resumed,
}

/// A position that has stood on the board: the grid, who was to move, and who made it by a
/// board play (`None` for a pass, or a set-up that counts as no play).
#[derive(Clone, Debug)]
struct Position {
    grid: Grid,
    to_move: Color,
    made_by_play_of: Option<Color>,
}

#[derive(Clone, Debug)]
struct NaiveGame {
    rules: Rules,
    width: u8,
    height: u8,
    grid: Grid,
    to_move: Color,
    phase: Phase,
    /// Everything each colour holds: captures, the opponent's self-captures, pass stones
    /// received and stones agreed dead.
    prisoners: [u32; 2],
    handicap: u32,
    resigned: Option<Color>,
    /// Set when a repetition ended the game (the ko rules that end a long cycle): the
    /// result's word, `0` or `Void`.
    cycle_result: Option<&'static str>,
    log: Vec<Logged>,
    history: Vec<Position>,
    /// During a confirmation of life and death (Japanese 1989, Article 7(2)): the whole game
    /// as play stopped, put back when the confirmation ends.
    stopped: Option<Box<NaiveGame>>,
    /// The confirmation's ko bans in the order they arose: `(player, point, stone)`: the player
    /// may not play at `point` taking back the single stone at `stone` that took there, until
    /// that player passes (each pass lifts the passer's latest ban).
    bans: Vec<(Color, Point, Point)>,
}

/// The naive executor behind the [`Referee`] trait.
#[derive(Default)]
pub struct Naive {
    game: Option<NaiveGame>,
}

impl Naive {
    /// A naive executor with no game yet; [`Referee::start`](super::Referee::start) begins one.
    pub fn new() -> Naive {
        Naive::default()
    }
}

fn legal(captured: Vec<Point>, self_captured: Vec<Point>) -> Verdict {
    Verdict::Legal {
        captured,
        self_captured,
    }
}

fn nothing() -> Verdict {
    legal(Vec::new(), Vec::new())
}

/// The orthogonal neighbours of `p` on a `width` x `height` board.
fn neighbours(p: Point, width: u8, height: u8) -> Vec<Point> {
    let mut out = Vec::new();
    if p.col > 0 {
        out.push(Point::new(p.col - 1, p.row));
    }
    if p.col + 1 < width {
        out.push(Point::new(p.col + 1, p.row));
    }
    if p.row > 0 {
        out.push(Point::new(p.col, p.row - 1));
    }
    if p.row + 1 < height {
        out.push(Point::new(p.col, p.row + 1));
    }
    out
}

fn at(grid: &Grid, p: Point) -> Option<Color> {
    grid[usize::from(p.row)][usize::from(p.col)]
}

fn put(grid: &mut Grid, p: Point, stone: Option<Color>) {
    grid[usize::from(p.row)][usize::from(p.col)] = stone;
}

fn all_points(width: u8, height: u8) -> Vec<Point> {
    (0..height)
        .flat_map(|row| (0..width).map(move |col| Point::new(col, row)))
        .collect()
}

/// The connected points holding the same thing as `start` (a string of stones, or an empty
/// region), by flood fill.
fn flood(grid: &Grid, start: Point, width: u8, height: u8) -> Vec<Point> {
    let what = at(grid, start);
    let mut found = vec![start];
    let mut next = 0;
    while next < found.len() {
        for n in neighbours(found[next], width, height) {
            if at(grid, n) == what && !found.contains(&n) {
                found.push(n);
            }
        }
        next += 1;
    }
    found
}

/// The empty points next to a string.
fn liberties(grid: &Grid, string: &[Point], width: u8, height: u8) -> Vec<Point> {
    let mut libs = Vec::new();
    for &s in string {
        for n in neighbours(s, width, height) {
            if at(grid, n).is_none() && !libs.contains(&n) {
                libs.push(n);
            }
        }
    }
    libs
}

/// The fixed handicap points for a square board of side `size`, as AGA Rule 4 lays them out
/// on 19x19 (lower-left and upper-right corners; then lower-right; then all four; five and
/// more add the centre for odd counts and the side points in pairs), carried to other sizes:
/// corners on the fourth line from 13x13 up, the third line below; no centre line on even
/// sizes or 7x7, so at most four there; none below 7x7.
fn fixed_handicap(size: u8, stones: usize) -> Option<Vec<Point>> {
    let most = if size < 7 {
        0
    } else if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    };
    if stones < 2 || stones > most {
        return None;
    }
    let near = if size >= 13 { 3 } else { 2 };
    let far = size - 1 - near;
    let mid = size / 2;
    let p = Point::new;
    let mut points = vec![p(near, near), p(far, far)];
    if stones >= 3 {
        points.push(p(far, near));
    }
    if stones >= 4 {
        points.push(p(near, far));
    }
    if stones >= 6 {
        points.extend([p(near, mid), p(far, mid)]);
    }
    if stones >= 8 {
        points.extend([p(mid, near), p(mid, far)]);
    }
    if stones % 2 == 1 && stones >= 5 {
        points.push(p(mid, mid));
    }
    Some(points)
}

impl NaiveGame {
    fn new(rules: &Rules, setup: &Setup) -> Result<NaiveGame, String> {
        let (width, height) = (setup.width, setup.height);
        if !(2..=25).contains(&width) || !(2..=25).contains(&height) {
            return Err(format!("a {width}x{height} board is not 2x2 to 25x25"));
        }
        let on_board = |p: Point| p.col < width && p.row < height;
        let mut grid: Grid = vec![vec![None; usize::from(width)]; usize::from(height)];
        for &(p, color) in &setup.stones {
            if !on_board(p) || at(&grid, p).is_some() {
                return Err(format!("set-up stone at {p} is off the board or repeated"));
            }
            put(&mut grid, p, Some(color));
        }
        let handicap = &setup.handicap;
        if handicap.len() == 1 || handicap.len() > 9 {
            return Err(format!("{} handicap stones", handicap.len()));
        }
        // Under fixed placement there must be a fixed placement for this many stones; the
        // stones must stand on it, unless the set-up records them as placed elsewhere (a
        // misplacement, which is a referee's matter and changes nothing in play).
        if !handicap.is_empty() && rules.handicap_placement == HandicapPlacement::Fixed {
            let mut fixed = (width == height)
                .then(|| fixed_handicap(width, handicap.len()))
                .flatten()
                .ok_or_else(|| format!("no fixed placement of {} stones", handicap.len()))?;
            let mut given = handicap.clone();
            fixed.sort();
            given.sort();
            if fixed != given && !setup.handicap_as_placed {
                return Err("handicap stones off the fixed points".to_string());
            }
        }
        for &p in handicap {
            if !on_board(p) || at(&grid, p).is_some() {
                return Err(format!("handicap stone at {p} is off the board or taken"));
            }
            put(&mut grid, p, Some(Color::Black));
        }
        for p in all_points(width, height) {
            if at(&grid, p).is_some()
                && liberties(&grid, &flood(&grid, p, width, height), width, height).is_empty()
            {
                return Err(format!("the string at {p} has no liberty"));
            }
        }
        let to_move = if handicap.is_empty() {
            setup.to_move
        } else {
            Color::White
        };
        let mut history = Vec::new();
        if setup.history == SetupHistory::Played {
            history.push(Position {
                grid: grid.clone(),
                to_move,
                made_by_play_of: Some(to_move.opponent()),
            });
        }
        Ok(NaiveGame {
            rules: *rules,
            width,
            height,
            grid,
            to_move,
            phase: Phase::Playing,
            prisoners: [0, 0],
            handicap: handicap.len() as u32,
            resigned: None,
            cycle_result: None,
            log: Vec::new(),
            history,
            stopped: None,
            bans: Vec::new(),
        })
    }

    fn apply(&mut self, event: &Event) -> Verdict {
        match event {
            Event::Move(color, mv) => self.make_move(*color, *mv),
            Event::Dispute(mover) => self.dispute(*mover),
            Event::Confirm(first) => self.confirm(*first),
            Event::Agree(dead) => self.agree(dead),
            Event::Resign(color) => {
                if self.phase == Phase::Ended {
                    return Verdict::Illegal(Reason::GameOver);
                }
                self.phase = Phase::Ended;
                self.resigned = Some(*color);
                nothing()
            }
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..) => {
                Verdict::Illegal(Reason::NoProcedure)
            }
        }
    }

    fn make_move(&mut self, color: Color, mv: Move) -> Verdict {
        match self.phase {
            Phase::Paused => return Verdict::Illegal(Reason::GamePaused),
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed | Phase::Confirming => {}
        }
        if color != self.to_move {
            return Verdict::Illegal(Reason::OutOfTurn);
        }
        match mv {
            Move::Pass => {
                self.pass(color);
                nothing()
            }
            Move::Play(p) => self.play(color, p),
        }
    }

    /// Plays on a copy of the grid and judges the result: occupied, then suicide, then the
    /// ko rule in force.
    fn play(&mut self, color: Color, p: Point) -> Verdict {
        let (w, h) = (self.width, self.height);
        if p.col >= w || p.row >= h || at(&self.grid, p).is_some() {
            return Verdict::Illegal(Reason::Occupied);
        }
        let mut after = self.grid.clone();
        put(&mut after, p, Some(color));
        // Opposing strings left without a liberty come off first...
        let mut captured = Vec::new();
        for n in neighbours(p, w, h) {
            if at(&after, n) == Some(color.opponent()) {
                let string = flood(&after, n, w, h);
                if liberties(&after, &string, w, h).is_empty() {
                    for s in string {
                        put(&mut after, s, None);
                        captured.push(s);
                    }
                }
            }
        }
        // ...then the mover's own string, if it still has none.
        let mut self_captured = Vec::new();
        let own = flood(&after, p, w, h);
        if liberties(&after, &own, w, h).is_empty() {
            for s in own {
                put(&mut after, s, None);
                self_captured.push(s);
            }
        }
        let suicide = match self.rules.suicide {
            SuicideRule::Forbidden => !self_captured.is_empty(),
            SuicideRule::MultiStone => self_captured.len() == 1,
            SuicideRule::Allowed => false,
        };
        if suicide {
            return Verdict::Illegal(Reason::Suicide);
        }
        // A ko retake: the opponent's last move took exactly one stone, here, and this play
        // takes back exactly the stone that did it.
        let retake = matches!(
            self.log.last(),
            Some(Logged::Play { color: c, at: q, captured: took })
                if *c == color.opponent() && took == &[p] && captured == [*q]
        );
        let simple_ban = match self.rules.ko {
            KoRule::Simple
            | KoRule::NaturalSituationalBasicKo
            | KoRule::SimpleCycleDraw
            | KoRule::SimpleCycleVoid => true,
            KoRule::Positional | KoRule::Situational | KoRule::NaturalSituational => false,
        };
        if simple_ban && retake {
            return Verdict::Illegal(Reason::Ko);
        }
        // A ko shape: the play took exactly one stone and stands alone with that point as its
        // only liberty.
        let own_after = flood(&after, p, w, h);
        let ko_shape = captured.len() == 1
            && own_after == [p]
            && liberties(&after, &own_after, w, h) == captured;
        // Article 7(2): in a confirmation, a player may not retake a ko it lost until it has
        // passed for that ko.
        if ko_shape && self.bans.contains(&(color, p, captured[0])) {
            return Verdict::Illegal(Reason::Ko);
        }
        let repeats = self.history.iter().any(|old| {
            let relevant = match self.rules.ko {
                KoRule::Simple | KoRule::SimpleCycleDraw | KoRule::SimpleCycleVoid => false,
                KoRule::Positional => true,
                KoRule::Situational => old.to_move == color.opponent(),
                KoRule::NaturalSituational | KoRule::NaturalSituationalBasicKo => {
                    old.made_by_play_of == Some(color)
                }
            };
            relevant && old.grid == after
        });
        if repeats {
            return Verdict::Illegal(if retake { Reason::Ko } else { Reason::Superko });
        }
        // Under the ko rules that let a cycle be played once round, a play that brings back a
        // position that stood before with the same player to move ends the game.
        let cycle_result = match self.rules.ko {
            KoRule::SimpleCycleDraw => Some("0"),
            KoRule::SimpleCycleVoid => Some("Void"),
            KoRule::Simple
            | KoRule::Positional
            | KoRule::Situational
            | KoRule::NaturalSituational
            | KoRule::NaturalSituationalBasicKo => None,
        };
        if let Some(word) = cycle_result {
            if self
                .history
                .iter()
                .any(|old| old.to_move == color.opponent() && old.grid == after)
            {
                self.cycle_result = Some(word);
                self.phase = Phase::Ended;
            }
        }
        self.grid = after;
        self.prisoners[color.index()] += captured.len() as u32;
        self.prisoners[color.opponent().index()] += self_captured.len() as u32;
        self.to_move = color.opponent();
        self.history.push(Position {
            grid: self.grid.clone(),
            to_move: self.to_move,
            made_by_play_of: Some(color),
        });
        self.log.push(Logged::Play {
            color,
            at: p,
            captured: captured.clone(),
        });
        if ko_shape && self.stopped.is_some() {
            self.bans.push((color.opponent(), captured[0], p));
        }
        legal(captured, self_captured)
    }

    fn hand_pass_stone(&mut self, passer: Color) {
        if self.rules.pass_stones == PassStones::On {
            self.prisoners[passer.opponent().index()] += 1;
        }
    }

    /// The moves since play last resumed (or since the start).
    fn since_resumption(&self) -> &[Logged] {
        let start = self
            .log
            .iter()
            .rposition(|l| matches!(l, Logged::Resumed))
            .map_or(0, |i| i + 1);
        &self.log[start..]
    }

    fn last_passer(&self) -> Option<Color> {
        self.log.iter().rev().find_map(|l| match l {
            Logged::Pass(c) => Some(*c),
            _ => None,
        })
    }

    fn pass(&mut self, color: Color) {
        // A pass in a confirmation is a pass for a ko and stops nothing: it lifts the latest
        // ban that stands against the passer, and hands over no pass stone.
        let confirming = self.stopped.is_some();
        if confirming {
            if let Some(i) = self.bans.iter().rposition(|&(c, _, _)| c == color) {
                self.bans.remove(i);
            }
        } else {
            self.hand_pass_stone(color);
        }
        self.to_move = color.opponent();
        self.history.push(Position {
            grid: self.grid.clone(),
            to_move: self.to_move,
            made_by_play_of: None,
        });
        self.log.push(Logged::Pass(color));
        if confirming {
            return;
        }
        let moves = self.since_resumption();
        let two_in_a_row = moves.len() >= 2
            && moves[moves.len() - 2..]
                .iter()
                .all(|l| matches!(l, Logged::Pass(_)));
        if !two_in_a_row {
            return;
        }
        let resumption_opened_with_two_passes = self.log.len() > moves.len() && moves.len() == 2;
        match self.rules.ending {
            Ending::PauseAgreeResume if resumption_opened_with_two_passes => self.end(),
            Ending::TwoPasses => self.end(),
            Ending::PauseAgreeResume
            | Ending::PlayOn
            | Ending::Agreement
            | Ending::ResumeOnRequest
            | Ending::ConfirmOrResume => {
                self.phase = Phase::Paused;
                if self.rules.white_passes_last == WhitePassesLast::AtStop
                    && self.last_passer() == Some(Color::Black)
                {
                    // White's extra pass at the stop, before any dispute (the AGA
                    // summary's point 3): Black has the move if play resumes.
                    self.hand_pass_stone(Color::White);
                    self.log.push(Logged::Pass(Color::White));
                    self.to_move = Color::Black;
                    self.history.push(Position {
                        grid: self.grid.clone(),
                        to_move: Color::Black,
                        made_by_play_of: None,
                    });
                }
            }
        }
    }

    /// The game ends by passes or agreement: where White must pass last and Black passed
    /// last, White passes once more (and hands over a pass stone where they are in use), which
    /// leaves Black to move as after any move of White's.
    fn end(&mut self) {
        self.phase = Phase::Ended;
        if self.rules.white_passes_last != WhitePassesLast::No
            && self.last_passer() == Some(Color::Black)
        {
            self.hand_pass_stone(Color::White);
            self.log.push(Logged::Pass(Color::White));
            self.to_move = Color::Black;
        }
    }

    /// Ends a confirmation, if one is under way: everything goes back to the stop.
    fn leave_confirmation(&mut self) {
        if let Some(stopped) = self.stopped.take() {
            *self = *stopped;
        }
    }

    /// Japanese 1989, Article 7(2): hypothetical play from the stopped position, `first` to
    /// move; a confirmation under way is dropped first.
    fn confirm(&mut self, first: Color) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming => {}
        }
        if self.rules.ending != Ending::ConfirmOrResume {
            return Verdict::Illegal(Reason::NoConfirmation);
        }
        self.leave_confirmation();
        self.stopped = Some(Box::new(self.clone()));
        self.bans.clear();
        self.phase = Phase::Confirming;
        self.to_move = first;
        nothing()
    }

    fn dispute(&mut self, mover: Option<Color>) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming => {}
        }
        if matches!(self.rules.ending, Ending::TwoPasses | Ending::Agreement) {
            return Verdict::Illegal(Reason::NoResumption);
        }
        self.leave_confirmation();
        let by_rule = self.last_passer().map_or(self.to_move, |c| c.opponent());
        let first = match (self.rules.ending, mover) {
            (Ending::PauseAgreeResume, None) => by_rule,
            (Ending::PauseAgreeResume, Some(named)) if named == by_rule => by_rule,
            (Ending::PauseAgreeResume, Some(_)) => return Verdict::Illegal(Reason::OutOfTurn),
            (Ending::PlayOn, Some(agreed)) => agreed,
            (Ending::PlayOn, None) => {
                self.end();
                return nothing();
            }
            // Japanese 1989, Article 9(3): the requester's opponent moves first, so either
            // player may be named; a plain dispute leaves the turn where the passes left it.
            (Ending::ResumeOnRequest | Ending::ConfirmOrResume, Some(first)) => first,
            (Ending::ResumeOnRequest | Ending::ConfirmOrResume, None) => self.to_move,
            (Ending::TwoPasses | Ending::Agreement, _) => {
                return Verdict::Illegal(Reason::NoResumption)
            }
        };
        self.phase = Phase::Resumed;
        self.to_move = first;
        self.log.push(Logged::Resumed);
        nothing()
    }

    fn agree(&mut self, dead: &[Point]) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming => {}
        }
        // The dead stones are those of the position where play stopped.
        let (w, h) = (self.width, self.height);
        let stopped = self.stopped.as_ref().map_or(&self.grid, |s| &s.grid);
        if dead
            .iter()
            .any(|&p| p.col >= w || p.row >= h || at(stopped, p).is_none())
        {
            return Verdict::Illegal(Reason::NoStone);
        }
        self.leave_confirmation();
        let mut removed = Vec::new();
        for &p in dead {
            if at(&self.grid, p).is_none() {
                continue; // already removed with an earlier point's string
            }
            for s in flood(&self.grid, p, w, h) {
                let color = at(&self.grid, s).expect("a string holds stones");
                self.prisoners[color.opponent().index()] += 1;
                put(&mut self.grid, s, None);
                removed.push(s);
            }
        }
        removed.sort();
        self.end();
        legal(removed, Vec::new())
    }

    /// The stones on the board, sorted by point as [`Observation::stones`] wants them.
    fn stones(&self) -> Vec<(Point, Color)> {
        let mut stones: Vec<(Point, Color)> = all_points(self.width, self.height)
            .into_iter()
            .filter_map(|p| at(&self.grid, p).map(|c| (p, c)))
            .collect();
        stones.sort();
        stones
    }

    /// The result and both scores (half points) of the position as it stands.
    fn count(&self) -> (String, Option<[i32; 2]>) {
        if let Some(loser) = self.resigned {
            return (format!("{}+R", loser.opponent().letter()), None);
        }
        if let Some(word) = self.cycle_result {
            return (word.to_string(), None);
        }
        let (w, h) = (self.width, self.height);
        let grid = &self.grid;
        // Empty regions, each with the colours that border it.
        let mut regions: Vec<(Vec<Point>, Vec<Color>)> = Vec::new();
        for p in all_points(w, h) {
            if at(grid, p).is_some() || regions.iter().any(|(r, _)| r.contains(&p)) {
                continue;
            }
            let region = flood(grid, p, w, h);
            let mut borders = Vec::new();
            for &q in &region {
                for n in neighbours(q, w, h) {
                    if let Some(c) = at(grid, n) {
                        if !borders.contains(&c) {
                            borders.push(c);
                        }
                    }
                }
            }
            regions.push((region, borders));
        }
        let seki = self.seki_regions(&regions);
        let mut territory = [0i32; 2];
        for (i, (region, borders)) in regions.iter().enumerate() {
            if borders.len() != 1 {
                continue;
            }
            if self.rules.seki_eyes == SekiEyes::Neutral && seki[i] {
                continue;
            }
            territory[borders[0].index()] += region.len() as i32;
        }
        let mut stones = [0i32; 2];
        for (_, c) in self.stones() {
            stones[c.index()] += 1;
        }
        let handicap_game = self.handicap >= 2;
        let komi = if handicap_game {
            self.rules.handicap_komi
        } else {
            self.rules.komi
        };
        let compensation = match (self.rules.scoring, self.rules.handicap_compensation) {
            (Scoring::Area, HandicapCompensation::NMinusOne) if handicap_game => {
                self.handicap as i32 - 1
            }
            (Scoring::Area, HandicapCompensation::N) if handicap_game => self.handicap as i32,
            _ => 0,
        };
        let mut score = [0i32; 2];
        for c in Color::BOTH {
            let i = c.index();
            let points = match self.rules.scoring {
                Scoring::Area => stones[i] + territory[i],
                Scoring::Territory => territory[i] + self.prisoners[i] as i32,
            };
            score[i] = 2 * points;
        }
        score[Color::White.index()] += komi.half_points() + 2 * compensation;
        let margin = score[0] - score[1];
        let half = |m: i32| {
            if m % 2 == 0 {
                format!("{}", m / 2)
            } else {
                format!("{}.5", m / 2)
            }
        };
        let result = if margin > 0 {
            format!("B+{}", half(margin))
        } else if margin < 0 {
            format!("W+{}", half(-margin))
        } else {
            let white_wins = match self.rules.draws {
                Draws::Jigo => false,
                Draws::WhiteWins => true,
                Draws::WhiteWinsHandicap => handicap_game,
                Draws::BlackWins => false,
            };
            if white_wins {
                "W+0"
            } else if self.rules.draws == Draws::BlackWins {
                "B+0"
            } else {
                "0"
            }
            .to_string()
        };
        (result, Some(score))
    }

    /// Which empty regions are eyes of a group in seki. A group is the strings of one colour
    /// joined through the regions only that colour borders; it is in seki when one of its
    /// strings borders a region that both colours border. An eye of such a group (a region
    /// only its colour borders) is then in seki too.
    fn seki_regions(&self, regions: &[(Vec<Point>, Vec<Color>)]) -> Vec<bool> {
        let (w, h) = (self.width, self.height);
        let grid = &self.grid;
        let region_of = |p: Point| regions.iter().position(|(r, _)| r.contains(&p));
        // The regions each string borders.
        let mut strings: Vec<(Vec<Point>, Vec<usize>)> = Vec::new();
        for p in all_points(w, h) {
            if at(grid, p).is_none() || strings.iter().any(|(s, _)| s.contains(&p)) {
                continue;
            }
            let string = flood(grid, p, w, h);
            let mut touches = Vec::new();
            for lib in liberties(grid, &string, w, h) {
                let r = region_of(lib).expect("every empty point is in a region");
                if !touches.contains(&r) {
                    touches.push(r);
                }
            }
            strings.push((string, touches));
        }
        // Groups: join strings that border a common one-colour region, until nothing changes.
        let mut group: Vec<usize> = (0..strings.len()).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for a in 0..strings.len() {
                for b in 0..strings.len() {
                    let linked = strings[a]
                        .1
                        .iter()
                        .any(|r| regions[*r].1.len() == 1 && strings[b].1.contains(r));
                    if linked && group[a] != group[b] {
                        let g = group[a].min(group[b]);
                        group[a] = g;
                        group[b] = g;
                        changed = true;
                    }
                }
            }
        }
        let group_in_seki = |g: usize| {
            (0..strings.len())
                .any(|s| group[s] == g && strings[s].1.iter().any(|r| regions[*r].1.len() == 2))
        };
        (0..regions.len())
            .map(|r| {
                regions[r].1.len() == 1
                    && (0..strings.len())
                        .any(|s| strings[s].1.contains(&r) && group_in_seki(group[s]))
            })
            .collect()
    }
}

impl Referee for Naive {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "goconform-naive".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// Every axis value (the illegal-move procedure changes nothing in board play), every
    /// ordinary event, and everything but a referee's record.
    fn capabilities(&self) -> Capabilities {
        Capabilities::new().observing([
            Observable::Reasons,
            Observable::Captures,
            Observable::Board,
            Observable::ToMove,
            Observable::Prisoners,
            Observable::Phase,
            Observable::Score,
        ])
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.game = Some(NaiveGame::new(rules, setup).map_err(Unsupported)?);
        Ok(())
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| EngineError::protocol("apply before start"))?;
        Ok(game.apply(event))
    }

    fn observe(&self) -> Observation {
        let Some(game) = &self.game else {
            return Observation::default();
        };
        Observation {
            stones: Some(game.stones()),
            to_move: Some(game.to_move),
            prisoners: Some(game.prisoners),
            phase: Some(game.phase),
            result: None,
            score: None,
            warnings: None,
        }
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        match &self.game {
            Some(game) => {
                let (result, score) = game.count();
                (Some(result), score)
            }
            None => (None, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_handicap_table() {
        let names = |size, n| {
            let mut v: Vec<String> = fixed_handicap(size, n)
                .unwrap()
                .iter()
                .map(|p| p.to_string())
                .collect();
            v.sort();
            v.join(" ")
        };
        assert_eq!(names(19, 3), "D4 Q16 Q4");
        assert_eq!(names(19, 5), "D16 D4 K10 Q16 Q4");
        assert_eq!(names(9, 8), "C3 C5 C7 E3 E7 G3 G5 G7");
        assert_eq!(names(13, 2), "D4 K10");
        assert_eq!(fixed_handicap(7, 5), None);
        assert_eq!(fixed_handicap(6, 2), None);
        assert_eq!(fixed_handicap(10, 4).map(|v| v.len()), Some(4));
    }
}
