//! Game records in a GTP session: `loadsgf` (a record's set-up, komi and moves, through
//! `sgf`) and `printsgf` (the session's game as SGF).

use super::*;

impl Engine<'_> {
    /// `loadsgf FILE [MOVE]`: the record's set-up, komi and moves up to, not including, move
    /// number MOVE (counted from 1, as GNU Go counts), or up to the first move at the vertex
    /// MOVE; the whole main line without one. The rules become those the record's `RU` names
    /// (a record naming rules we do not have is refused; without `RU` the rules in force
    /// stay), and the komi its `KM` gives; the record's `TB`/`TW`
    /// marks become the dead stones when the whole game is loaded. Answers the colour to move.
    /// A record that cannot be read, or a move the rules refuse, changes nothing.
    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Answer {
        let (file, until) = match args {
            [file] => (*file, None),
            [file, until] => (*file, Some(*until)),
            _ => return Err("syntax error: loadsgf FILE [MOVE_NUMBER|VERTEX]".to_string()),
        };
        self.may_use_files("loadsgf")?;
        let path = std::path::Path::new(file);
        let bytes = match crate::spec::location::read_bounded(path) {
            Ok(bytes) => bytes,
            Err(_) => {
                return Err(match crate::sgf::read_file(path, &Default::default()) {
                    Err(e) => format!("cannot load file: {e}"),
                    Ok(_) => format!("cannot load file: cannot read {file}"),
                })
            }
        };
        // The first game is loaded; the others are read one at a time and dropped.
        let mut first = None;
        crate::sgf::read_each(path, &bytes, &Default::default(), |game| {
            first.get_or_insert(game);
        })
        .map_err(|e| format!("cannot load file: {e}"))?;
        let Some(record) = first else {
            return Err("cannot load file: no game in it".to_string());
        };
        let record = record.map_err(|e| format!("cannot load file: {e}"))?;
        if record.setup.width != record.setup.height {
            return Err(format!(
                "cannot load file: a {}x{} board; GTP boards are square",
                record.setup.width, record.setup.height
            ));
        }
        let size = record.setup.width;
        let count = match until {
            None => record.events.len(),
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n >= 1 => (n - 1).min(record.events.len()),
                Ok(_) => return Err("the move number counts from 1".to_string()),
                Err(_) => {
                    let vertex = Point::parse_gtp(text, size, size).map_err(|e| e.to_string())?;
                    record
                        .events
                        .iter()
                        .position(|e| matches!(e, Event::Move(_, Move::Play(p)) if *p == vertex))
                        .unwrap_or(record.events.len())
                }
            },
        };
        // RU: the record's rules, where it names one of ours; a record naming rules we do not
        // specify is refused, so the game is never played under rules it does not say.
        let named = match &record.rules {
            None => None,
            Some((_, crate::sgf::RulesTag::Ruleset(name))) => {
                Some((name.to_string(), (self.resolve)(name)?))
            }
            Some((raw, crate::sgf::RulesTag::Unsupported(_))) => {
                return Err(format!(
                    "cannot load file: RU[{raw}] names rules this engine does not have; \
                     goconform-rules chooses ours"
                ))
            }
        };
        let saved = (
            self.rules,
            self.start.clone(),
            self.record.clone(),
            self.dead.clone(),
            self.rules_name.clone(),
        );
        if let Some((name, rules)) = named {
            self.rules = rules;
            self.rules_name = name;
        }
        if let Some(k) = &record.komi {
            self.rules.komi = k.komi;
            self.rules.handicap_komi = k.komi;
        }
        let start = Start {
            size,
            stones: record.setup.stones.clone(),
            to_move: record.setup.to_move,
            handicap: record.setup.handicap.clone(),
            agreed_placement: !record.setup.handicap.is_empty(),
        };
        let loaded = self.restart(start).map_err(|e| format!("{file}: {e}")).and_then(|()| {
            let mut played = record.clone();
            played.events.truncate(count);
            let (events, numbers) = crate::sgf::convert::events_with_disputes(&played);
            for (event, number) in events.into_iter().zip(numbers) {
                self.apply(event.clone()).map_err(|reason| {
                    format!("move {number} of the record ({event}) is illegal under these rules: {reason}")
                })?;
            }
            Ok(())
        });
        if let Err(message) = loaded {
            let (rules, start, record, dead, name) = saved;
            self.rules = rules;
            self.rules_name = name;
            let _ = self.restart(start);
            for event in record {
                let _ = self.apply(event);
            }
            self.dead = dead;
            return Err(message);
        }
        // The record's root properties (names, date, event, result, ...), for printsgf.
        self.kept = crate::sgf::write::root_properties(&bytes, 0).unwrap_or_default();
        if count == record.events.len() {
            if let Some(dead) = record.dead_stones(self.game.board()) {
                self.dead = self.game.board().strings_through(&dead);
                self.dead_agreed = true;
            }
        }
        Ok(self.game.to_move().name().to_string())
    }

    /// `printsgf [FILE]`: the game so far as an SGF record (set-up, moves, the komi and rules
    /// in force, disputes and agreements in comments, the dead stones as territory marks, the
    /// result once the game has ended), as the answer or written to FILE. After `loadsgf`, the
    /// record's other root properties (`PB`, `PW`, `DT`, `EV`, `RO`, `RE`, `PC`, ...) are
    /// written as the record gave them.
    pub(super) fn printsgf(&self, args: &[&str]) -> Answer {
        use crate::sgf::write::{write_record, Info, MoveNode};
        let file = match args {
            [] => None,
            [file] => Some(*file),
            _ => return Err("syntax error: printsgf [FILE]".to_string()),
        };
        if file.is_some() {
            self.may_use_files("printsgf")?;
        }
        let mut nodes: Vec<MoveNode> = Vec::new();
        let mut root_comment = Vec::new();
        let mut dead: Vec<(Point, Color)> = Vec::new();
        let (mut game, _) = replay(self.rules, &self.start, &[])?;
        for event in &self.record {
            if let Event::Agree(points) = event {
                let removed = game.board().strings_through(points);
                dead = removed
                    .iter()
                    .filter_map(|p| game.board().get(*p).map(|c| (*p, c)))
                    .collect();
            }
            let _ = game.apply_out_of_turn(event.clone());
            match event {
                Event::Move(color, mv) => nodes.push(MoveNode {
                    color: *color,
                    mv: *mv,
                    comment: Vec::new(),
                }),
                other => {
                    let words = other.to_string();
                    match nodes.last_mut() {
                        Some(node) => node.comment.push(words),
                        None => root_comment.push(words),
                    }
                }
            }
        }
        if dead.is_empty() && self.game.phase() != Phase::Ended {
            dead = self
                .dead
                .iter()
                .filter_map(|p| self.game.board().get(*p).map(|c| (*p, c)))
                .collect();
        }
        let (width, height) = (self.start.size, self.start.size);
        let setup = Setup {
            width,
            height,
            stones: self.start.stones.clone(),
            handicap: self.start.handicap.clone(),
            to_move: self.start.to_move,
            history: SetupHistory::Played,
            handicap_as_placed: false,
        };
        let info = Info {
            rules: Some(self.rules_name.clone()),
            komi: Some(if self.start.handicap.len() >= 2 {
                self.rules.handicap_komi
            } else {
                self.rules.komi
            }),
            result: (self.game.phase() == Phase::Ended).then(|| self.game.result()),
            comment: root_comment,
            dead,
            kept: self.kept.clone(),
            ..Info::default()
        };
        let text = write_record(&setup, &nodes, &info);
        match file {
            None => Ok(text),
            Some(path) => crate::files::write_whole(std::path::Path::new(path), text.as_bytes())
                .map(|()| String::new())
                .map_err(|e| format!("cannot write {path}: {e}")),
        }
    }
}
