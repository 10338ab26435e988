//! The values of the game-information properties, read the way real records write them: the
//! komi (`KM`) in its spellings, the result (`RE`) and the rules (`RU`).

use std::fmt;

use crate::board::Color;
use crate::rules::Komi;

/// How a `KM` value is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KomiUnits {
    /// Points, except a whole number of 100 or more, which no real komi reaches: that is the
    /// Fox server's hundredths (`750` is 7.5). Under Chinese rules Fox counts komi in stones
    /// (`375` is 3.75 stones, 7.5 points); a hundredths value that is a quarter but not a
    /// half point is read that way.
    #[default]
    Auto,
    /// Always points, as FF\[4\] defines `KM`.
    Points,
    /// Always hundredths of a point (stones, for quarter values, as under `Auto`).
    Hundredths,
}

impl KomiUnits {
    /// The unit named by a command-line word (`auto`, `points`, `hundredths`); `None` for any other word.
    pub fn parse(word: &str) -> Option<KomiUnits> {
        match word {
            "auto" => Some(KomiUnits::Auto),
            "points" => Some(KomiUnits::Points),
            "hundredths" => Some(KomiUnits::Hundredths),
            _ => None,
        }
    }
}

/// A komi as written and as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordKomi {
    /// The komi the record means, once the units are settled.
    pub komi: Komi,
    /// How the written value was taken, when it was not plainly points (`hundredths`,
    /// `hundredths of stones`), for reports.
    pub reading: Option<&'static str>,
}

/// Reads a `KM` value: `7.5`, `7.50`, `7.500000`, `-3`, `750` (hundredths, see [`KomiUnits`]).
pub fn parse_komi(raw: &str, units: KomiUnits) -> Result<RecordKomi, String> {
    let text = raw.trim();
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of points"))?;
    if !value.is_finite() {
        return Err(format!("`{text}` is not a number of points"));
    }
    let whole = value.fract() == 0.0;
    let hundredths = match units {
        KomiUnits::Points => false,
        KomiUnits::Hundredths => true,
        KomiUnits::Auto => whole && value.abs() >= 100.0,
    };
    if !hundredths {
        return Komi::from_f64(value)
            .map(|komi| RecordKomi {
                komi,
                reading: None,
            })
            .ok_or_else(|| format!("komi {text} is not a whole or half number of points"));
    }
    let points = value / 100.0;
    if let Some(komi) = Komi::from_f64(points) {
        return Ok(RecordKomi {
            komi,
            reading: Some("hundredths"),
        });
    }
    match Komi::from_f64(points * 2.0) {
        Some(komi) => Ok(RecordKomi {
            komi,
            reading: Some("hundredths of stones"),
        }),
        None => Err(format!(
            "komi {text} read as hundredths is {points}, not a whole or half number of points"
        )),
    }
}

/// How a game ended, as `RE` records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// A counted win by this margin in half points (`B+3.5`); a zero margin (`B+0`) is read
    /// as a draw.
    Score(Color, i32),
    /// A win by resignation (`W+R`, `W+Resign`).
    Resignation(Color),
    /// A win on time (`B+T`, `B+Time`).
    Time(Color),
    /// A win by forfeit (`B+F`, `B+Forfeit`).
    Forfeit(Color),
    /// A win with no reason given (`B+`, `B`).
    Win(Color),
    /// A draw (`0`, `Draw`, `D`, `Jigo`).
    Draw,
    /// A win by a real number that is not a whole or half number of points (`W+1.25`: valid
    /// SGF; the Fox server counts in stones), as written: the winner is known, the margin
    /// cannot be compared with a count in points.
    Margin(Color, String),
    /// No result (`Void`).
    Void,
    /// Unknown (`?`).
    Unknown,
    /// Something real records write that SGF does not define (`B+AW`, `W+J`, `B+V`): kept as
    /// written, never guessed at.
    Unrecognised(String),
}

impl RecordedResult {
    /// Reads an `RE` value. Never fails: what is not recognised is kept as written.
    pub fn parse(raw: &str) -> RecordedResult {
        let text = raw.trim();
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "0" | "draw" | "d" | "jigo" | "d+j" | "0+0" => return RecordedResult::Draw,
            "void" => return RecordedResult::Void,
            "?" | "" => return RecordedResult::Unknown,
            _ => {}
        }
        let mut chars = lower.chars();
        let color = match chars.next() {
            Some('b') => Color::Black,
            Some('w') => Color::White,
            _ => return RecordedResult::Unrecognised(text.to_string()),
        };
        let rest = chars.as_str();
        let Some(reason) = rest.strip_prefix('+') else {
            return if rest.is_empty() {
                RecordedResult::Win(color)
            } else {
                RecordedResult::Unrecognised(text.to_string())
            };
        };
        match reason {
            "" => RecordedResult::Win(color),
            "r" | "resign" => RecordedResult::Resignation(color),
            "t" | "time" => RecordedResult::Time(color),
            "f" | "forfeit" => RecordedResult::Forfeit(color),
            number => match number.parse::<f64>() {
                // A margin of nothing is no win: SGF writes a draw `0`, and `B+0` says the same.
                Ok(0.0) => RecordedResult::Draw,
                Ok(value) if value.is_finite() && value > 0.0 => match Komi::from_f64(value) {
                    Some(margin) => RecordedResult::Score(color, margin.half_points()),
                    // SGF allows any real number as a score; a margin that no count in points
                    // gives (the Fox server's counts in stones, `W+1.25`) names the winner only.
                    None => RecordedResult::Margin(color, number.to_string()),
                },
                _ => RecordedResult::Unrecognised(text.to_string()),
            },
        }
    }

    /// The counted result in the form [`crate::game::counting::Count::result`] gives, when
    /// `RE` records one (`B+3.5`, `W+0`, `0`).
    pub fn counted(&self) -> Option<String> {
        match self {
            RecordedResult::Score(color, half) => Some(format!(
                "{}+{}",
                color.letter(),
                crate::game::counting::format_points(*half)
            )),
            RecordedResult::Draw => Some("0".to_string()),
            _ => None,
        }
    }

    /// One word for the kind of result, for tables.
    pub fn kind(&self) -> &'static str {
        match self {
            RecordedResult::Score(..) => "score",
            RecordedResult::Resignation(_) => "resignation",
            RecordedResult::Time(_) => "time",
            RecordedResult::Forfeit(_) => "forfeit",
            RecordedResult::Win(_) => "win",
            RecordedResult::Draw => "draw",
            RecordedResult::Margin(..) => "margin",
            RecordedResult::Void => "void",
            RecordedResult::Unknown => "unknown",
            RecordedResult::Unrecognised(_) => "unrecognised",
        }
    }
}

impl fmt::Display for RecordedResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordedResult::Score(..) | RecordedResult::Draw => {
                f.write_str(&self.counted().unwrap_or_default())
            }
            RecordedResult::Resignation(c) => write!(f, "{}+R", c.letter()),
            RecordedResult::Time(c) => write!(f, "{}+T", c.letter()),
            RecordedResult::Forfeit(c) => write!(f, "{}+F", c.letter()),
            RecordedResult::Win(c) => write!(f, "{}+", c.letter()),
            RecordedResult::Margin(c, margin) => write!(f, "{}+{margin}", c.letter()),
            RecordedResult::Void => f.write_str("Void"),
            RecordedResult::Unknown => f.write_str("?"),
            RecordedResult::Unrecognised(text) => f.write_str(text),
        }
    }
}

/// What an `RU` value names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesTag {
    /// One of our rulesets.
    Ruleset(&'static str),
    /// A ruleset seen in real records that this project does not specify (Lasker-Maas, ...).
    Unsupported(String),
}

/// Maps an `RU` value to the name of one of our rulesets. The names real records use: `AGA`,
/// `Japanese`/`JP`, `Chinese`/`CN`, `NZ`/`New Zealand`, `Tromp-Taylor`/`TT`, `BGA`/`British`,
/// `EGF`, `London`, `Korean`/`KR`, `French`/`FFG`, and Ing's rules as the SGF specification
/// spells them (`GOE`) or by name. The rest have no ruleset here and are named back.
pub fn rules_tag(raw: &str) -> RulesTag {
    let key: String = raw
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let name = match key.as_str() {
        "aga" | "american" | "agarules" => "aga",
        "japanese" | "jp" | "japan" | "japanese1989" | "nihonkiin" => "japanese-1989",
        "chinese" | "cn" | "china" | "chinese2002" => "chinese",
        "nz" | "newzealand" => "new-zealand",
        "trompt" | "tromptaylor" | "tt" => "tromp-taylor",
        "bga" | "british" => "bga",
        "egf" => "egf-option-2",
        "london" | "londonopen" => "london-open",
        "korean" | "kr" | "korea" => "korean",
        "goe" | "ing" | "ingrules" | "ing2006" => "ing",
        "french" | "ffg" | "france" => "french",
        _ => return RulesTag::Unsupported(raw.trim().to_string()),
    };
    RulesTag::Ruleset(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn komi(raw: &str) -> i32 {
        parse_komi(raw, KomiUnits::Auto).unwrap().komi.half_points()
    }

    #[test]
    fn komi_spellings() {
        assert_eq!(komi("7.5"), 15);
        assert_eq!(komi("7.50"), 15);
        assert_eq!(komi("7.500000"), 15);
        assert_eq!(komi("750"), 15);
        assert_eq!(komi("650"), 13);
        assert_eq!(komi("375"), 15);
        assert_eq!(komi("0"), 0);
        assert_eq!(komi("-3"), -6);
        assert!(parse_komi("6.25", KomiUnits::Auto).is_err());
        assert!(parse_komi("seven", KomiUnits::Auto).is_err());
        assert_eq!(
            parse_komi("750", KomiUnits::Points)
                .unwrap()
                .komi
                .half_points(),
            1500
        );
        assert_eq!(
            parse_komi("50", KomiUnits::Hundredths)
                .unwrap()
                .komi
                .half_points(),
            1
        );
    }

    #[test]
    fn results() {
        use RecordedResult as R;
        assert_eq!(R::parse("B+3.5"), R::Score(Color::Black, 7));
        // A margin of nothing is a draw (issue 33: it was read as a win by nothing).
        assert_eq!(R::parse("W+0.0"), R::Draw);
        assert_eq!(R::parse("B+0"), R::Draw);
        // Any real number is valid SGF; one no count in points gives names the winner only.
        assert_eq!(R::parse("W+1.25"), R::Margin(Color::White, "1.25".into()));
        assert_eq!(R::parse("W+1.25").to_string(), "W+1.25");
        assert_eq!(R::parse("W+1.25").counted(), None);
        assert_eq!(R::parse("W+R"), R::Resignation(Color::White));
        assert_eq!(R::parse("w+resign"), R::Resignation(Color::White));
        assert_eq!(R::parse("B+T"), R::Time(Color::Black));
        assert_eq!(R::parse("B+Time"), R::Time(Color::Black));
        assert_eq!(R::parse("B+F"), R::Forfeit(Color::Black));
        assert_eq!(R::parse("W"), R::Win(Color::White));
        assert_eq!(R::parse("0"), R::Draw);
        assert_eq!(R::parse("draw"), R::Draw);
        assert_eq!(R::parse("D+J"), R::Draw);
        assert_eq!(R::parse("Void"), R::Void);
        assert_eq!(R::parse("?"), R::Unknown);
        assert_eq!(R::parse("B+AW"), R::Unrecognised("B+AW".into()));
        assert_eq!(R::parse("B+3.5").counted().as_deref(), Some("B+3.5"));
        assert_eq!(R::parse("W+12").to_string(), "W+12");
    }

    #[test]
    fn rules_names() {
        assert_eq!(rules_tag("Japanese"), RulesTag::Ruleset("japanese-1989"));
        assert_eq!(rules_tag("AGA"), RulesTag::Ruleset("aga"));
        assert_eq!(rules_tag("Tromp-Taylor"), RulesTag::Ruleset("tromp-taylor"));
        assert_eq!(rules_tag("NZ"), RulesTag::Ruleset("new-zealand"));
        assert_eq!(rules_tag("Korean"), RulesTag::Ruleset("korean"));
        assert_eq!(rules_tag("GOE"), RulesTag::Ruleset("ing"));
        assert_eq!(rules_tag("Ing"), RulesTag::Ruleset("ing"));
        assert_eq!(rules_tag("French"), RulesTag::Ruleset("french"));
        assert_eq!(
            rules_tag("Lasker-Maas"),
            RulesTag::Unsupported("Lasker-Maas".into())
        );
    }

    /// Every name an `RU` value maps to is a ruleset of the embedded specification.
    #[test]
    fn rules_names_are_rulesets() {
        let spec = crate::spec::embedded::spec().expect("the embedded spec loads");
        for raw in [
            "AGA", "Japanese", "Chinese", "NZ", "TT", "BGA", "EGF", "London", "Korean", "GOE",
            "French",
        ] {
            let RulesTag::Ruleset(name) = rules_tag(raw) else {
                panic!("{raw} maps to no ruleset");
            };
            assert!(
                spec.ruleset(name).is_some(),
                "RU[{raw}] maps to unknown {name}"
            );
        }
    }
}
