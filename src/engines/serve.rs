//! The engine side of the JSON-lines protocol: any [`Referee`] (the reference by default)
//! answering requests on a reader and writer, so that `goconform serve` speaks the protocol on
//! standard input and output and the implementer of an engine in any language can diff their
//! answers against the reference's, request by request.
//!
//! Every request gets exactly one line in answer, `bye` and the end of input end the loop,
//! and nothing a request says can stop the server: an unreadable request is answered with an
//! `error` whose `id` is `null`, and a panic of the referee with an `error` for that request.

use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{json, Value};

use super::lines::{read_bounded_line, BoundedLine};
use super::protocol::{
    ErrorReply, HelloReply, Reply, Request, RunRequest, RunResult, Skipped, WireObservation,
    WireStep, BOARD_ROWS, MAX_LINE_BYTES,
};
use crate::conformance::{Observable, Observation, Referee, Reference, Unsupported};

/// Serves the reference executor: reads requests from `input` until `bye` or the end of
/// input, and writes one reply line per request to `output`, flushed at once.
pub fn serve(input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_referee(&mut Reference::new(), input, output)
}

/// Serves any implementation of [`Referee`] the same way.
pub fn serve_referee(
    referee: &mut dyn Referee,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buffer = Vec::new();
    loop {
        let read = read_bounded_line(&mut input, &mut buffer, MAX_LINE_BYTES)?;
        let reply = if read == BoundedLine::End {
            return Ok(());
        } else if read == BoundedLine::TooLong {
            Reply::Error(ErrorReply {
                id: None,
                message: format!("the request is longer than {MAX_LINE_BYTES} bytes"),
                context: None,
            })
        } else {
            let text = String::from_utf8_lossy(&buffer);
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            match serde_json::from_str::<Request>(text) {
                Ok(Request::Bye) => return Ok(()),
                Ok(request) => answer(referee, &request),
                Err(e) => Reply::Error(ErrorReply {
                    id: request_id(text),
                    message: format!("cannot read the request: {e}"),
                    context: None,
                }),
            }
        };
        // The line and its newline in one write: the harness wakes once per reply, not once
        // for the line and again for its end.
        let mut line = reply.to_line();
        line.push('\n');
        output.write_all(line.as_bytes())?;
        output.flush()?;
    }
}

/// The `id` of a request that could not be read as a whole, if it has a readable one.
fn request_id(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    value.get("id")?.as_str().map(str::to_string)
}

/// The answer to one request (`bye` included, which is answered by nothing and never gets
/// here from [`serve_referee`]).
pub fn answer(referee: &mut dyn Referee, request: &Request) -> Reply {
    match request {
        // The engine answers with the version it speaks; the harness decides.
        Request::Hello { .. } => {
            let mut hello = HelloReply::new(&referee.info(), &referee.capabilities());
            hello.extensions.push(BOARD_ROWS.to_string());
            Reply::Hello(hello)
        }
        Request::Run(run) => match catch_unwind(AssertUnwindSafe(|| play(referee, run))) {
            Ok(reply) => reply,
            Err(payload) => {
                let text = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".to_string());
                error(&run.id, format!("the referee panicked: {text}"), None)
            }
        },
        Request::Bye => error("", "bye has no answer", None),
    }
}

fn error(id: &str, message: impl Into<String>, context: Option<Value>) -> Reply {
    Reply::Error(ErrorReply {
        id: Some(id.to_string()),
        message: message.into(),
        context,
    })
}

/// Plays one trial from the start: the set-up, then every event, observing after each.
pub fn play(referee: &mut dyn Referee, run: &RunRequest) -> Reply {
    let (rules, setup, events, observe) = match run.decode() {
        Ok(decoded) => decoded,
        Err(e) => return error(&run.id, format!("cannot read the run: {e}"), None),
    };
    if let Err(Unsupported(why)) = referee.start(&rules, &setup) {
        return Reply::Skipped(Skipped {
            id: run.id.clone(),
            reason: why,
        });
    }
    let size = (setup.width, setup.height);
    let seen = |referee: &dyn Referee| {
        WireObservation::encode_as(
            &observe_all(referee, &observe),
            &observe,
            run.board_form,
            size,
        )
    };
    let initial = seen(referee);
    // The reply is one line, and no line may pass MAX_LINE_BYTES: a run whose steps would
    // not fit is refused as soon as they stop fitting, so a small request (many events, every
    // board observed) cannot make the server build a reply of hundreds of megabytes.
    let mut length = line_length(&initial);
    let mut steps = Vec::with_capacity(events.len().min(1024));
    for (k, event) in events.iter().enumerate() {
        match referee.apply(event) {
            Ok(verdict) => {
                let step = WireStep::encode_with(&verdict, seen(referee));
                length = length.saturating_add(line_length(&step) + 1);
                if length > MAX_LINE_BYTES {
                    return error(
                        &run.id,
                        format!(
                            "the reply would be longer than {MAX_LINE_BYTES} bytes, the longest line the protocol allows, by event {} of {}: ask for fewer events or observe less",
                            k + 1,
                            events.len()
                        ),
                        Some(json!({ "event": k + 1, "text": event.to_string() })),
                    );
                }
                steps.push(step);
            }
            Err(e) => {
                return error(
                    &run.id,
                    e.message,
                    Some(json!({ "event": k + 1, "text": event.to_string() })),
                )
            }
        }
    }
    Reply::Result(RunResult {
        id: run.id.clone(),
        initial,
        steps,
    })
}

/// The length of a value written as JSON (a value that cannot be written counts as nothing:
/// writing the reply will say so). The bytes are counted as they are produced, never kept: the
/// measure costs a second serialization of each step but no memory, so the bound holds for the
/// memory of the reply itself.
fn line_length(value: &impl serde::Serialize) -> usize {
    let mut counter = ByteCounter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => 0,
    }
}

/// A writer that keeps only how many bytes went through it.
struct ByteCounter(usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the referee shows, with its count when the score is asked for.
fn observe_all(referee: &dyn Referee, observe: &BTreeSet<Observable>) -> Observation {
    let mut seen = referee.observe();
    if observe.contains(&Observable::Score) && seen.result.is_none() && seen.score.is_none() {
        (seen.result, seen.score) = referee.count();
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::protocol::{validate_reply, PROTOCOL_VERSION};

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_measured_length_is_the_written_length() {
        let values = [
            json!({ "text": "B D4", "board": ["X..", ".O.", "..\u{e9}"], "n": 12345 }),
            json!([]),
            json!("a \"quoted\" line\n"),
        ];
        for value in values {
            assert_eq!(
                line_length(&value),
                serde_json::to_vec(&value).unwrap().len()
            );
        }
    }

    #[test]
    fn every_request_gets_one_valid_line_and_bye_ends() {
        let lines = session(concat!(
            "{\"type\":\"hello\",\"protocol\":1}\n",
            "\n",
            "not json\n",
            "{\"type\":\"run\",\"id\":\"r\",\"rules\":{},\"setup\":{\"width\":5,\"height\":5,\"to_move\":\"B\"},\"events\":[]}\n",
            "{\"type\":\"bye\"}\n",
            "{\"type\":\"hello\",\"protocol\":1}\n",
        ));
        assert_eq!(lines.len(), 3, "{lines:?}");
        for line in &lines {
            assert_eq!(validate_reply(line), Ok(()), "{line}");
        }
        let Ok(Reply::Hello(hello)) = serde_json::from_str(&lines[0]) else {
            panic!("{}", lines[0]);
        };
        assert_eq!(hello.protocol, PROTOCOL_VERSION);
        assert!(lines[1].contains("\"id\":null"), "{}", lines[1]);
        assert!(lines[2].contains("missing axes"), "{}", lines[2]);
    }

    const RULES: &str = r#"{"draws":"jigo","ending":"agreement","handicap-compensation":"none","handicap-komi":"0","handicap-placement":"fixed","illegal-move":"none","ko":"simple","komi":"6.5","pass-stones":"off","scoring":"territory","seki-eyes":"neutral","suicide":"forbidden","white-passes-last":"no"}"#;

    #[test]
    fn a_reply_longer_than_a_line_may_be_is_an_error_not_a_huge_line() {
        // 25x25 with Black on every other column, every board observed: about 3 kB a step,
        // so 20,000 passes would make a reply of about 60 MB from a request of about 250 kB.
        let stones: Vec<String> = "ACEGJLNQSUWY"
            .chars()
            .flat_map(|c| (1..=25).map(move |row| format!("[\"{c}{row}\",\"B\"]")))
            .collect();
        let passes: Vec<String> = (0..20_000)
            .map(|i| format!("\"{} pass\"", if i % 2 == 0 { "B" } else { "W" }))
            .collect();
        let request_of = |passes: &[String]| {
            format!(
                "{{\"type\":\"run\",\"id\":\"big\",\"rules\":{RULES},\"setup\":{{\"width\":25,\"height\":25,\"stones\":[{}],\"to_move\":\"B\"}},\"events\":[{}],\"observe\":[\"board\"]}}\n",
                stones.join(","),
                passes.join(",")
            )
        };
        let lines = session(&request_of(&passes));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].len() < 2_000, "{}", &lines[0][..2_000]);
        assert_eq!(validate_reply(&lines[0]), Ok(()), "{}", lines[0]);
        assert!(
            lines[0].contains("the reply would be longer than"),
            "{}",
            lines[0]
        );
        // Refused exactly where the reply stops fitting: the events before the one named make
        // a reply of at most a line's length, and with it the reply is refused.
        let reply: Value = serde_json::from_str(&lines[0]).unwrap();
        let k = reply["context"]["event"].as_u64().unwrap() as usize;
        let fits = session(&request_of(&passes[..k - 1]));
        assert!(
            fits[0].starts_with("{\"type\":\"result\""),
            "{}",
            &fits[0][..200]
        );
        assert!(fits[0].len() <= MAX_LINE_BYTES, "{}", fits[0].len());
        // ... and one step more (a pass, the same board) would not have fitted.
        let fitted: Value = serde_json::from_str(&fits[0]).unwrap();
        let last = fitted["steps"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .to_string();
        assert!(
            fits[0].len() + 1 + last.len() > MAX_LINE_BYTES,
            "{}",
            fits[0].len()
        );
        let refused = session(&request_of(&passes[..k]));
        assert!(refused[0].contains("the reply would be longer than"));
    }

    /// `hello` lists the `board-rows` extension; a run asking for rows gets every board as
    /// rows and one that does not as pairs, and both read back to the same observations.
    #[test]
    fn boards_come_as_rows_only_when_asked_and_read_back_the_same() {
        let hello = session("{\"type\":\"hello\",\"protocol\":1}\n");
        let Ok(Reply::Hello(hello)) = serde_json::from_str(&hello[0]) else {
            panic!("{}", hello[0]);
        };
        assert!(hello.speaks(BOARD_ROWS), "{hello:?}");
        let run = |form: &str| {
            format!(
                "{{\"type\":\"run\",\"id\":\"r\",\"rules\":{RULES},\"setup\":{{\"width\":5,\"height\":3,\"stones\":[[\"A1\",\"B\"],[\"E3\",\"W\"]],\"to_move\":\"B\"}},\"events\":[\"B B1\",\"W A2\",\"B pass\"],\"observe\":[\"board\",\"to-move\"]{form}}}\n"
            )
        };
        let pairs = session(&run(""));
        let rows = session(&run(",\"board_form\":\"rows\""));
        assert_eq!(validate_reply(&rows[0]), Ok(()), "{}", rows[0]);
        assert!(!pairs[0].contains("\"rows\""), "{}", pairs[0]);
        assert!(!rows[0].contains("\"board\""), "{}", rows[0]);
        assert!(
            rows[0].contains(r#""initial":{"rows":["....W",".....","B...."]"#),
            "{}",
            rows[0]
        );
        let decoded = |line: &str| {
            let Ok(Reply::Result(result)) = serde_json::from_str(line) else {
                panic!("{line}");
            };
            let steps: Vec<_> = result
                .steps
                .iter()
                .map(|s| s.decode(5, 3).unwrap())
                .collect();
            (result.initial.decode(5, 3).unwrap(), steps)
        };
        assert_eq!(decoded(&rows[0]), decoded(&pairs[0]));
        assert_eq!(
            decoded(&rows[0]).1[1].1.stones.as_ref().map(Vec::len),
            Some(4)
        );
    }

    #[test]
    fn an_overlong_request_is_answered_and_skipped() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{\"type\":\"bye\"}\n");
        let mut out = Vec::new();
        serve(input.as_slice(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("longer than"), "{text}");
    }
}
