//! Properties of the incremental board and the executor over random games.
//!
//! The board keeps strings, pseudo-liberties and hashes incrementally for speed; these
//! properties compare it with naive recomputation after every move of many random games.

use std::collections::HashSet;

use goconform::board::{Board, Color, Move, Point, QuietPlay};
use goconform::game::{Event, Game, Reason, Setup, Verdict};
use goconform::rules::{KoRule, Rules, SuicideRule};
use proptest::prelude::*;

/// Liberties of the string at `p`, found by flood fill on the public API only.
fn naive_liberties(board: &Board, p: Point) -> usize {
    let color = board.get(p).expect("a stone");
    let mut seen = HashSet::from([p]);
    let mut stack = vec![p];
    let mut libs = HashSet::new();
    while let Some(q) = stack.pop() {
        for n in board.adjacent(q) {
            match board.get(n) {
                None => {
                    libs.insert(n);
                }
                Some(c) if c == color && seen.insert(n) => stack.push(n),
                _ => {}
            }
        }
    }
    libs.len()
}

fn rules(ko: KoRule, suicide: SuicideRule) -> Rules {
    Rules {
        ko,
        suicide,
        ..Rules::default()
    }
}

fn ko_rule() -> impl Strategy<Value = KoRule> {
    prop::sample::select(KoRule::ALL.to_vec())
}

fn suicide_rule() -> impl Strategy<Value = SuicideRule> {
    prop::sample::select(SuicideRule::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// After every move: the incremental hash equals the hash from scratch, every string has a
    /// liberty, `liberties` agrees with a flood fill, and the preview predicted the outcome.
    #[test]
    fn incremental_state_matches_recomputation(
        size in 2u8..8,
        ko in ko_rule(),
        suicide in suicide_rule(),
        picks in prop::collection::vec((0usize..64, 0u8..10), 1..120),
    ) {
        let mut game = Game::new(rules(ko, suicide), &Setup::empty(size, size)).unwrap();
        for (pick, pass_roll) in picks {
            if game.phase() != goconform::game::Phase::Playing {
                break;
            }
            let color = game.to_move();
            let points: Vec<Point> = game.board().points().collect();
            let p = points[pick % points.len()];
            let mv = if pass_roll == 0 { Move::Pass } else { Move::Play(p) };
            let before = game.board().clone();
            let preview = before.preview(color, p);
            // The quiet check legality uses under repetition rules tells what the preview
            // tells, on every point for either colour.
            for q in before.points() {
                for c in [Color::Black, Color::White] {
                    let quiet = before.quiet_play(c, q);
                    match before.preview(c, q) {
                        None => prop_assert_eq!(quiet, None),
                        Some(full) if full.captured > 0 => {
                            prop_assert_eq!(quiet, Some(QuietPlay::Captures))
                        }
                        Some(full) if full.self_captured > 0 => {
                            prop_assert_eq!(quiet, Some(QuietPlay::Lost))
                        }
                        Some(full) => prop_assert_eq!(
                            quiet,
                            Some(QuietPlay::Keeps { hash_after: full.hash_after })
                        ),
                    }
                }
            }
            let verdict = game.apply(Event::Move(color, mv));
            let board = game.board();
            prop_assert_eq!(board.hash(), board.hash_from_scratch());
            for q in board.points() {
                if board.get(q).is_some() {
                    let naive = naive_liberties(board, q);
                    prop_assert!(naive > 0, "string at {} has no liberty", q);
                    prop_assert_eq!(board.liberties(q), naive);
                }
            }
            match (mv, &verdict) {
                (Move::Play(_), Verdict::Legal { captured, self_captured }) => {
                    let preview = preview.expect("a legal play was previewed");
                    prop_assert_eq!(preview.captured as usize, captured.len());
                    prop_assert_eq!(preview.self_captured as usize, self_captured.len());
                    prop_assert_eq!(preview.hash_after, board.hash());
                }
                (_, Verdict::Illegal(_)) => prop_assert_eq!(&before, board),
                _ => {}
            }
        }
    }

    /// A play is refused as `occupied` exactly when the point holds a stone, and as `suicide`
    /// only where the suicide rule forbids that many stones.
    #[test]
    fn refusals_match_their_reasons(
        size in 3u8..7,
        suicide in suicide_rule(),
        picks in prop::collection::vec(0usize..49, 1..80),
    ) {
        let mut game = Game::new(rules(KoRule::Simple, suicide), &Setup::empty(size, size)).unwrap();
        for pick in picks {
            let color = game.to_move();
            let points: Vec<Point> = game.board().points().collect();
            let p = points[pick % points.len()];
            let preview = game.board().preview(color, p);
            match game.apply(Event::Move(color, Move::Play(p))) {
                Verdict::Illegal(Reason::Occupied) => prop_assert!(preview.is_none()),
                Verdict::Illegal(Reason::Suicide) => {
                    let n = preview.expect("empty point").self_captured;
                    match suicide {
                        SuicideRule::Forbidden => prop_assert!(n >= 1),
                        SuicideRule::MultiStone => prop_assert_eq!(n, 1),
                        SuicideRule::Allowed => prop_assert!(false, "suicide refused where allowed"),
                    }
                }
                _ => {}
            }
        }
    }
}

proptest! {
    /// `JudgedPlay::play_in_place` (what playouts use) changes the game exactly as
    /// `JudgedPlay::play` does, and lends the stones that `play`'s verdict copies.
    #[test]
    fn play_in_place_is_play_without_the_copies(
        size in 3u8..7,
        suicide in suicide_rule(),
        picks in prop::collection::vec(0usize..49, 1..120),
    ) {
        let rules = rules(KoRule::Situational, suicide);
        let mut copying = Game::new(rules, &Setup::empty(size, size)).unwrap();
        let mut lending = copying.clone();
        for pick in picks {
            let color = copying.to_move();
            let points: Vec<Point> = copying.board().points().collect();
            let p = points[pick % points.len()];
            let (Ok(a), Ok(b)) = (copying.judge_play(color, p), lending.judge_play(color, p)) else {
                prop_assert_eq!(
                    copying.check_play(color, p).is_ok(),
                    lending.check_play(color, p).is_ok()
                );
                continue;
            };
            let Verdict::Legal { captured, self_captured } = a.play() else {
                panic!("a judged play is legal");
            };
            let removed = b.play_in_place();
            prop_assert_eq!(removed.captured, &captured[..]);
            prop_assert_eq!(removed.self_captured, &self_captured[..]);
            prop_assert_eq!(copying.board(), lending.board());
            prop_assert_eq!(copying.to_move(), lending.to_move());
            prop_assert_eq!(copying.prisoners(Color::Black), lending.prisoners(Color::Black));
            prop_assert_eq!(copying.prisoners(Color::White), lending.prisoners(Color::White));
        }
    }
}

#[test]
fn positions_on_different_colours_to_move_hash_alike_but_compare_by_board() {
    let mut a = Board::new(5, 5).unwrap();
    let mut b = Board::new(5, 5).unwrap();
    a.set_stone(Color::Black, Point::new(0, 0));
    b.set_stone(Color::Black, Point::new(0, 0));
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    b.clear_point(Point::new(0, 0));
    assert_ne!(a, b);
}

/// Any event, by any colour, in any phase: the executor answers, never panics, and an illegal
/// event leaves the board, turn, phase and prisoners exactly as they were.
fn any_event(size: u8) -> impl Strategy<Value = Event> {
    let side = size;
    prop_oneof![
        6 => (any::<bool>(), 0..side, 0..side).prop_map(|(black, c, r)| {
            let color = if black { Color::Black } else { Color::White };
            Event::Move(color, Move::Play(Point::new(c, r)))
        }),
        2 => any::<bool>().prop_map(|black| {
            Event::Move(if black { Color::Black } else { Color::White }, Move::Pass)
        }),
        1 => proptest::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]).prop_map(Event::Dispute),
        1 => prop::collection::vec((0..side, 0..side), 0..3)
            .prop_map(|points| Event::Agree(points.into_iter().map(|(c, r)| Point::new(c, r)).collect())),
    ]
}

fn any_rules() -> impl Strategy<Value = Rules> {
    (
        ko_rule(),
        suicide_rule(),
        prop::sample::select(goconform::rules::Ending::ALL.to_vec()),
        prop::sample::select(goconform::rules::PassStones::ALL.to_vec()),
        prop::sample::select(goconform::rules::WhitePassesLast::ALL.to_vec()),
    )
        .prop_map(
            |(ko, suicide, ending, pass_stones, white_passes_last)| Rules {
                ko,
                suicide,
                ending,
                pass_stones,
                white_passes_last,
                ..Rules::default()
            },
        )
}

/// Everything an event could change: board, turn, phase, prisoners, history length.
fn observable_state(game: &Game) -> (Board, Color, goconform::game::Phase, u32, u32, usize) {
    (
        game.board().clone(),
        game.to_move(),
        game.phase(),
        game.prisoners(Color::Black),
        game.prisoners(Color::White),
        game.history_len(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_event_gets_a_verdict_and_refusals_change_nothing(
        rules in any_rules(),
        events in prop::collection::vec(any_event(4), 0..160),
    ) {
        let mut game = Game::new(rules, &Setup::empty(4, 4)).unwrap();
        for event in events {
            let before = observable_state(&game);
            if let Verdict::Illegal(_) = game.apply(event.clone()) {
                prop_assert_eq!(before, observable_state(&game));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A game built in the storage of an earlier one (`Game::new_reusing`, of any size, rules
    /// and length) is the game `Game::new` makes: the same verdict for every event, and after
    /// each the same board (stones, hash from scratch, liberties by flood fill), turn, phase,
    /// prisoners and history length, whatever the earlier game left in its arrays.
    #[test]
    fn a_game_in_a_spare_games_storage_plays_as_a_new_one(
        spare_rules in any_rules(),
        spare_size in 2u8..8,
        spare_events in prop::collection::vec(any_event(7), 0..160),
        rules in any_rules(),
        size in 2u8..8,
        events in prop::collection::vec(any_event(7), 0..160),
    ) {
        let mut spare = Game::new(spare_rules, &Setup::empty(spare_size, spare_size)).unwrap();
        for event in spare_events {
            spare.apply(event);
        }
        let setup = Setup::empty(size, size);
        let mut fresh = Game::new(rules, &setup).unwrap();
        let mut reused = Game::new_reusing(rules, &setup, spare).unwrap();
        prop_assert_eq!(observable_state(&fresh), observable_state(&reused));
        for event in events {
            prop_assert_eq!(fresh.apply(event.clone()), reused.apply(event));
            prop_assert_eq!(observable_state(&fresh), observable_state(&reused));
            let board = reused.board();
            prop_assert_eq!(board.hash(), fresh.board().hash());
            prop_assert_eq!(board.hash(), board.hash_from_scratch());
            for q in board.points() {
                if board.get(q).is_some() {
                    prop_assert_eq!(board.liberties(q), naive_liberties(board, q));
                }
            }
        }
    }
}

/// A seeded source of numbers below its argument (splitmix64), so that the games of a test
/// are the same in every run.
fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Every point's verdict by [`Game::check_play`], for comparison with the one-pass
/// [`Game::legal_plays`].
fn legal_point_by_point(game: &Game, color: Color) -> Vec<Point> {
    let (width, height) = (game.board().width(), game.board().height());
    (0..height)
        .flat_map(|row| (0..width).map(move |col| Point::new(col, row)))
        .filter(|&p| game.check_play(color, p).is_ok())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// `Game::legal_plays` is `check_play` at every point, for both colours, after every event
    /// of random games under any rules: in play, paused, resumed, confirming and ended.
    #[test]
    fn legal_plays_are_the_points_check_play_allows(
        rules in any_rules(),
        size in 2u8..6,
        events in prop::collection::vec(any_event(5), 0..200),
    ) {
        let mut game = Game::new(rules, &Setup::empty(size, size)).unwrap();
        for event in events {
            game.apply(event);
            for color in [Color::Black, Color::White] {
                prop_assert_eq!(game.legal_plays(color), legal_point_by_point(&game, color));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// `Game::turn` lists what `legal_plays` lists for the player to move, and `Turn::play`
    /// makes a listed play exactly as `Game::apply` makes it (board, turn, prisoners and every
    /// later judgement, compared through the next turn's list) and refuses any other point
    /// with the reason `judge_play` gives, changing nothing, under any rules and through
    /// paused, resumed, confirming and ended games.
    #[test]
    fn a_turn_judged_whole_plays_as_apply(
        rules in any_rules(),
        size in 2u8..6,
        steps in prop::collection::vec((any_event(5), 0usize..36, any::<bool>()), 0..160),
    ) {
        let mut turned = Game::new(rules, &Setup::empty(size, size)).unwrap();
        let mut applied = turned.clone();
        for (event, pick, listed) in steps {
            let color = turned.to_move();
            let expected = applied.legal_plays(color);
            let turn = turned.turn();
            let mut listed_plays = Vec::new();
            turn.for_each(|p| listed_plays.push(p));
            prop_assert_eq!(&listed_plays, &expected);
            prop_assert_eq!(turn.len(), expected.len());
            prop_assert_eq!(turn.is_empty(), expected.is_empty());
            let points: Vec<Point> = applied.board().points().collect();
            let p = if listed && !expected.is_empty() {
                expected[pick % expected.len()]
            } else {
                points[pick % points.len()]
            };
            prop_assert_eq!(turn.contains(p), expected.contains(&p));
            match turn.play(p) {
                Ok(removed) => {
                    let (captured, self_captured) =
                        (removed.captured.to_vec(), removed.self_captured.to_vec());
                    let verdict = applied.apply(Event::Move(color, Move::Play(p)));
                    prop_assert_eq!(verdict, Verdict::Legal { captured, self_captured });
                }
                Err(reason) => {
                    prop_assert!(!expected.contains(&p));
                    let refused = applied.judge_play(color, p).err();
                    prop_assert_eq!(Some(reason), refused);
                }
            }
            prop_assert_eq!(turned.board(), applied.board());
            prop_assert_eq!(turned.to_move(), applied.to_move());
            prop_assert_eq!(turned.phase(), applied.phase());
            prop_assert_eq!(turned.prisoners(Color::Black), applied.prisoners(Color::Black));
            prop_assert_eq!(turned.prisoners(Color::White), applied.prisoners(Color::White));
            // Other events (passes, disputes, agreements) move both games alike.
            prop_assert_eq!(turned.apply(event.clone()), applied.apply(event));
        }
    }
}

/// The same agreement where it is hardest: long games of legal plays only, on boards small
/// enough that positions recur, under every ko rule and self-capture rule. The games are
/// checked to have met every kind of refusal `legal_plays` must reproduce (superko, the ko
/// ban, suicide), so the test cannot pass by never reaching them.
#[test]
fn legal_plays_agree_through_repetitions_under_every_rule() {
    let mut next = below(0x1E6A);
    let mut refusals = HashSet::new();
    for &ko in KoRule::ALL {
        for &suicide in SuicideRule::ALL {
            for size in [3u8, 4, 5] {
                for _ in 0..6 {
                    let mut game =
                        Game::new(rules(ko, suicide), &Setup::empty(size, size)).unwrap();
                    for _ in 0..(6 * usize::from(size) * usize::from(size)) {
                        if !game.phase().is_play() {
                            break;
                        }
                        let color = game.to_move();
                        let legal = game.legal_plays(color);
                        assert_eq!(legal, legal_point_by_point(&game, color), "{ko} {suicide}");
                        for p in game.board().points() {
                            if let Err(reason) = game.check_play(color, p) {
                                refusals.insert(format!("{reason:?}"));
                            }
                        }
                        // Mostly plays, sometimes a pass (two in a row end the game).
                        let mv = if legal.is_empty() || next(20) == 0 {
                            Move::Pass
                        } else {
                            Move::Play(legal[next(legal.len())])
                        };
                        assert!(game.apply(Event::Move(color, mv)).is_legal());
                    }
                }
            }
        }
    }
    for reason in ["Superko", "Ko", "Suicide", "Occupied"] {
        assert!(
            refusals.contains(reason),
            "never met {reason}: {refusals:?}"
        );
    }
}

/// `Board::turn_plays` sorts every empty point as `Board::quiet_play` judges it, on boards whose
/// bit planes span several words (so rows and neighbours cross word boundaries) and in random
/// positions full of strings in atari: with captures kept apart, `keeps` is exactly where the
/// play captures nothing and keeps its stone; without, where its stone stays at all.
#[test]
fn turn_plays_sort_points_as_quiet_play_judges_them() {
    let mut next = below(0x7E57);
    let (mut captures, mut lost) = (0, 0);
    for (width, height) in [(9u8, 9u8), (19, 19), (25, 25), (13, 7), (3, 25), (25, 2)] {
        for _ in 0..3 {
            let mut board = Board::new(width, height).unwrap();
            let mut color = Color::Black;
            for _ in 0..(2 * usize::from(width) * usize::from(height)) {
                for mover in [Color::Black, Color::White] {
                    let apart = board.turn_plays(mover, true);
                    let together = board.turn_plays(mover, false);
                    for p in board.points() {
                        let Some(play) = board.quiet_play(mover, p) else {
                            for plays in [&apart, &together] {
                                assert!(!plays.keeps.contains(p));
                                assert!(!plays.captures.contains(p) && !plays.lost.contains(p));
                            }
                            continue;
                        };
                        let quiet = matches!(play, QuietPlay::Keeps { .. });
                        let stays = board.keeps_stone(mover, p) == Some(true);
                        captures += usize::from(play == QuietPlay::Captures);
                        lost += usize::from(play == QuietPlay::Lost);
                        let at = |set: &goconform::board::PointSet| set.contains(p);
                        let seen = [at(&apart.keeps), at(&apart.captures), at(&apart.lost)];
                        let expected =
                            [quiet, play == QuietPlay::Captures, play == QuietPlay::Lost];
                        assert_eq!(seen, expected, "{p} {mover:?}\n{board:?}");
                        let seen = [
                            at(&together.keeps),
                            at(&together.captures),
                            at(&together.lost),
                        ];
                        assert_eq!(seen, [stays, false, !stays], "{p} {mover:?}\n{board:?}");
                    }
                }
                let empty: Vec<Point> =
                    board.points().filter(|&p| board.get(p).is_none()).collect();
                if empty.is_empty() {
                    break;
                }
                board.play(color, empty[next(empty.len())], &mut Vec::new());
                color = color.opponent();
            }
        }
    }
    assert!(
        captures > 100 && lost > 100,
        "captures {captures}, lost {lost}"
    );
}

/// `Game::legal_plays` against `check_play` point by point on boards of several words, under a
/// superko and simple ko: long games of legal plays with many captures.
#[test]
fn legal_plays_agree_on_large_boards() {
    let mut next = below(0x1A26);
    for ko in [KoRule::Situational, KoRule::Positional, KoRule::Simple] {
        for (width, height) in [(9u8, 9u8), (19, 19), (13, 7)] {
            let mut game = Game::new(
                rules(ko, SuicideRule::Forbidden),
                &Setup::empty(width, height),
            )
            .unwrap();
            for _ in 0..(2 * usize::from(width) * usize::from(height)) {
                let color = game.to_move();
                let legal = game.legal_plays(color);
                assert_eq!(
                    legal,
                    legal_point_by_point(&game, color),
                    "{ko} {width}x{height}"
                );
                let mv = match legal.len() {
                    0 => Move::Pass,
                    n => Move::Play(legal[next(n)]),
                };
                assert!(game.apply(Event::Move(color, mv)).is_legal());
            }
        }
    }
}
