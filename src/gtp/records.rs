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
    /// A move the rules refuse is left off the board (the next move is taken whoever makes
    /// it, as `judge` replays a record) and kept as played for `printsgf`; the answer then
    /// says so, one line per refused move after the colour. A record that cannot be read, or
    /// whose set-up the rules refuse, changes nothing.
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
            // RU[] names no rules: the rules in force stay.
            None => None,
            Some((raw, _)) if raw.trim().is_empty() => None,
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
            std::mem::take(&mut self.kept),
            std::mem::take(&mut self.refused),
            self.loaded.take(),
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
        let mut refused = Vec::new();
        let mut said = Vec::new();
        let loaded = self.restart(start).map_err(|e| format!("{file}: {e}")).map(|()| {
            let mut played = record.clone();
            played.events.truncate(count);
            let (events, numbers) = crate::sgf::convert::events_with_disputes(&played);
            for (event, number) in events.into_iter().zip(numbers) {
                if let Err(reason) = self.apply(event.clone()) {
                    said.push(format!(
                        "move {number} of the record ({event}) is illegal under these rules: {reason}; left off the board, kept for printsgf"
                    ));
                    refused.push((self.record.len(), event, reason));
                }
            }
        });
        if let Err(message) = loaded {
            let (rules, start, record, dead, name, kept, refused, loaded) = saved;
            self.rules = rules;
            self.rules_name = name;
            let _ = self.restart(start);
            for event in record {
                let _ = self.apply(event);
            }
            self.dead = dead;
            self.kept = kept;
            self.refused = refused;
            self.loaded = loaded;
            return Err(message);
        }
        // The record's root properties (names, date, event, result, ...), for printsgf.
        self.kept = crate::sgf::write::root_properties(&bytes, 0).unwrap_or_default();
        self.refused = refused;
        self.loaded = Some((self.rules_name.clone(), self.komi_in_force()));
        let placed = !record.setup.stones.is_empty()
            || (!record.setup.handicap.is_empty() && !record.handicap_from_moves);
        self.layout = Layout {
            handicap_as_moves: record.handicap_from_moves,
            setup_node: placed
                && !self
                    .kept
                    .iter()
                    .any(|(k, _)| matches!(k.as_str(), "AB" | "AW" | "AE")),
        };
        if count == record.events.len() {
            if let Some(dead) = record.dead_stones(self.game.board()) {
                self.dead = self.game.board().strings_through(&dead);
                self.dead_agreed = true;
            }
        }
        said.insert(0, self.game.to_move().name().to_string());
        Ok(said.join("\n"))
    }

    /// `printsgf [FILE]`: the game so far as an SGF record (set-up, moves, the komi and rules
    /// in force, disputes and agreements in comments, the dead stones as territory marks, the
    /// result once the game has ended), as the answer or written to FILE. After `loadsgf`, the
    /// record's other root properties (`PB`, `PW`, `DT`, `EV`, `RO`, `RE`, `PC`, ...) are
    /// written as the record gave them.
    pub(super) fn printsgf(&self, args: &[&str]) -> Answer {
        use crate::sgf::write::{write_record_laid_out, Info, MoveNode};
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
        // A refused event of a loaded record, written where it was played: a move as a move,
        // anything else in a comment, each with the reason.
        let write_refused = |at: usize, nodes: &mut Vec<MoveNode>, root: &mut Vec<String>| {
            for (_, event, reason) in self.refused.iter().filter(|r| r.0 == at) {
                let why = format!(
                    "goconform: {event} breaks a rule under {}: {reason}; left off the board",
                    self.rules_name
                );
                match (event, nodes.last_mut()) {
                    (Event::Move(color, mv), _) => nodes.push(MoveNode {
                        color: *color,
                        mv: *mv,
                        comment: vec![why],
                    }),
                    (_, Some(node)) => node.comment.push(why),
                    (_, None) => root.push(why),
                }
            }
        };
        for (at, event) in self.record.iter().enumerate() {
            write_refused(at, &mut nodes, &mut root_comment);
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
        write_refused(self.record.len(), &mut nodes, &mut root_comment);
        if dead.is_empty() && self.game.phase() != Phase::Ended {
            dead = self
                .dead
                .iter()
                .filter_map(|p| self.game.board().get(*p).map(|c| (*p, c)))
                .collect();
        }
        let (width, height) = (self.start.size, self.start.size);
        let mut setup = Setup {
            width,
            height,
            stones: self.start.stones.clone(),
            handicap: self.start.handicap.clone(),
            to_move: self.start.to_move,
            history: SetupHistory::Played,
            handicap_as_placed: false,
        };
        if self.layout.handicap_as_moves {
            // The loaded record wrote its handicap as Black's first moves: so is it written.
            let stones = std::mem::take(&mut setup.handicap);
            setup.to_move = Color::Black;
            let moves = stones.into_iter().map(|p| MoveNode {
                color: Color::Black,
                mv: Move::Play(p),
                comment: Vec::new(),
            });
            nodes.splice(0..0, moves);
        }
        // While the game is the loaded record's, with the rules and komi it gave, the record's
        // own RU, KM and RE are written as it gave them (the kept root properties).
        let as_loaded =
            self.loaded.as_ref() == Some(&(self.rules_name.clone(), self.komi_in_force()));
        let theirs = |ident: &str| as_loaded && self.kept.iter().any(|(k, _)| k == ident);
        let info = Info {
            rules: (!theirs("RU")).then(|| self.rules_name.clone()),
            komi: (!theirs("KM")).then(|| self.komi_in_force()),
            result: (self.game.phase() == Phase::Ended && !theirs("RE"))
                .then(|| self.game.result()),
            comment: root_comment,
            dead,
            kept: self.kept.clone(),
            ..Info::default()
        };
        let text = write_record_laid_out(&setup, &nodes, &info, self.layout.setup_node);
        match file {
            None => Ok(text),
            Some(path) => crate::files::write_whole(std::path::Path::new(path), text.as_bytes())
                .map(|()| String::new())
                .map_err(|e| format!("cannot write {path}: {e}")),
        }
    }

    /// The komi of the game in force: the handicap komi after a handicap, else the komi.
    fn komi_in_force(&self) -> Komi {
        if self.start.handicap.len() >= 2 {
            self.rules.handicap_komi
        } else {
            self.rules.komi
        }
    }
}
