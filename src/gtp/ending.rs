//! The end of a game in a GTP session: the dead stones, the count and its result
//! (`final_score`, `final_status_list`, `goconform-dead`, `goconform-agree`).

use super::*;

impl Engine<'_> {
    /// The stones that scoring now removes as dead: the `goconform-dead` stones, except once
    /// the game has ended (the agreement, if any, has removed them) and during a pause under
    /// `ending=two-passes` (the position is scored as it stands).
    pub(super) fn scoring_dead(&self) -> &[Point] {
        match self.game.phase() {
            Phase::Ended => &[],
            Phase::Paused if self.rules.ending == Ending::TwoPasses => &[],
            Phase::Playing | Phase::Resumed | Phase::Paused | Phase::Confirming => &self.dead,
        }
    }

    /// The count `final_score` stands on, following the ending procedure of the rules: the
    /// executor's own after the end; after agreeing now on the `goconform-dead` stones during
    /// a pause; the position as it stands with those stones dead while play goes on.
    pub(super) fn final_count(&self) -> counting::Count {
        match self.game.phase() {
            Phase::Ended => self.game.count(),
            Phase::Paused | Phase::Confirming if self.rules.ending != Ending::TwoPasses => {
                let mut agreed = self.game.clone();
                if agreed.apply(Event::Agree(self.dead.clone())).is_legal() {
                    agreed.count()
                } else {
                    self.count_as_it_stands()
                }
            }
            Phase::Paused | Phase::Confirming | Phase::Playing | Phase::Resumed => {
                self.count_as_it_stands()
            }
        }
    }

    /// The position as it stands, with the stones [`Engine::scoring_dead`] gives removed.
    pub(super) fn count_as_it_stands(&self) -> counting::Count {
        counting::count(
            self.game.board(),
            self.game.rules(),
            self.game.prisoner_breakdown(),
            self.scoring_dead(),
            self.game.handicap(),
        )
    }

    /// `final_score`: the result where the count is settled ([`Engine::count_is_settled`]),
    /// `B+T`/`W+T` after a flag fell, otherwise a failure naming the stones in doubt.
    pub(super) fn final_score(&self) -> Answer {
        if let Some(loser) = self.flagged {
            return Ok(format!("{}+T", loser.opponent().letter()));
        }
        self.count_is_settled()?;
        Ok(self.final_result())
    }

    /// Whether the count can stand as the result of a pause. Once two passes have paused play
    /// (the moment a controller asks for the result), dead stones are a matter of agreement
    /// (AGA Rules 9 and 10): the count stands if the players have said which stones are dead
    /// (`goconform-dead`, possibly none, or a loaded record's marks) or no group's status is
    /// in doubt (`game::status`: every group has two eyes); otherwise the answer names the
    /// groups in doubt rather than pass off a count that calls them alive. After the end the
    /// game has settled it (agreement, the four-pass end, resignation); rules that end on two
    /// passes remove nothing; while play goes on the count is of the position as it stands.
    pub(super) fn count_is_settled(&self) -> Result<(), String> {
        if self.game.phase() != Phase::Paused
            || self.rules.ending == Ending::TwoPasses
            || self.dead_agreed
        {
            return Ok(());
        }
        let doubt = crate::game::status::groups_in_doubt(self.game.board());
        if doubt.is_empty() {
            return Ok(());
        }
        let at: Vec<String> = doubt
            .iter()
            .filter_map(|g| g.first().map(|p| p.to_string()))
            .collect();
        Err(format!(
            "dead stones not agreed: {} group(s) could be dead (at {}); goconform-dead VERTEX... names the dead stones (goconform-dead alone: none), goconform-agree ends the game",
            doubt.len(),
            at.join(" ")
        ))
    }

    /// `B+R`/`W+R` after a resignation, `0` or `Void` after a repetition that ended the game
    /// (`ko = simple-cycle-draw` or `simple-cycle-void`), otherwise the result of the count.
    pub(super) fn final_result(&self) -> String {
        if self.game.resigned().is_some() || self.game.cycled().is_some() {
            self.game.result()
        } else {
            self.final_count().result()
        }
    }

    /// `goconform-score`: the fields of the final count on one line, then the result.
    pub(super) fn score_line(&self) -> String {
        let count = self.final_count();
        let mut line = format!("scoring {}", count.scoring);
        for color in Color::BOTH {
            let c = color.index();
            let _ = write!(
                line,
                "; {} territory {} stones {} captures {} dead {} pass-stones {} komi {} \
                 compensation {} total {}",
                color.letter(),
                count.territory[c],
                count.stones[c],
                count.captures[c],
                count.dead[c],
                count.pass_stones[c],
                format_points(count.komi[c]),
                format_points(count.compensation[c]),
                format_points(count.total[c]),
            );
        }
        let _ = write!(line, "; result {}", self.final_result());
        line
    }

    pub(super) fn final_status_list(&self, args: &[&str]) -> Answer {
        let [status] = exactly::<1>(args)?;
        let board = self.game.board();
        let dead_stones = self.scoring_dead();
        let dead: HashSet<Point> = dead_stones.iter().copied().collect();
        // Seki read from the position (game::status), once the dead stones are off.
        let mut without_dead = board.clone();
        for &p in dead_stones {
            without_dead.clear_point(p);
        }
        let seki: HashSet<Point> = crate::game::status::seki_stones(&without_dead)
            .into_iter()
            .collect();
        let wanted: HashSet<Point> = match status {
            "dead" => dead,
            "seki" => seki,
            "alive" => board
                .points()
                .filter(|p| board.get(*p).is_some() && !dead.contains(p) && !seki.contains(p))
                .collect(),
            _ => return Err(format!("invalid status `{status}`: alive, dead or seki")),
        };
        Ok(strings_by_line(board, &wanted))
    }

    pub(super) fn set_dead(&mut self, args: &[&str]) -> Answer {
        let board = self.game.board();
        let mut named: Vec<Point> = Vec::new();
        for text in args {
            let point = self.point(text)?;
            if board.get(point).is_none() {
                return Err(format!("no stone at {point}"));
            }
            named.push(point);
        }
        self.dead = board.strings_through(&named);
        self.dead_agreed = true;
        Ok(String::new())
    }

    pub(super) fn agree(&mut self, args: &[&str]) -> Answer {
        let dead = if args.is_empty() {
            self.dead.clone()
        } else {
            args.iter()
                .map(|text| self.point(text))
                .collect::<Result<Vec<_>, _>>()?
        };
        let mut removed = self.apply(Event::Agree(dead)).map_err(illegal)?;
        removed.sort_by_key(|p| (Reverse(p.row), p.col));
        let names: Vec<String> = removed.iter().map(Point::to_string).collect();
        Ok(names.join(" "))
    }
}
