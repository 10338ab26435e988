//! Reading a peer's lines with a bound on their length, so that one endless line cannot take
//! all the memory there is: the JSON-lines server (`goconform serve`) and the GTP face read
//! their requests through it.

use std::io::{self, BufRead, Read};

/// What [`read_bounded_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundedLine {
    /// The input has ended.
    End,
    /// A line (with its newline, if it had one) is in the buffer.
    Line,
    /// The line was longer than the bound: it has been read to its end and dropped.
    TooLong,
}

/// Reads one line, through its `\n`, into `buffer` (cleared first), keeping at most `limit`
/// bytes of it. A longer line is consumed up to and including its newline without being
/// stored, so the next read starts on the next line.
pub fn read_bounded_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    limit: usize,
) -> io::Result<BoundedLine> {
    buffer.clear();
    let take = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    if input.by_ref().take(take).read_until(b'\n', buffer)? == 0 {
        return Ok(BoundedLine::End);
    }
    if buffer.len() > limit && buffer.last() != Some(&b'\n') {
        buffer.clear();
        skip_line(input)?;
        return Ok(BoundedLine::TooLong);
    }
    Ok(BoundedLine::Line)
}

/// The rest of an overlong line, up to and including its newline.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_dropped_and_the_next_one_read() {
        let text = format!("short\n{}\nafter", "x".repeat(100));
        let mut input = io::Cursor::new(text.into_bytes());
        let mut buffer = Vec::new();
        let mut read = || read_bounded_line(&mut input, &mut buffer, 10).unwrap();
        assert_eq!(read(), BoundedLine::Line);
        assert_eq!(read(), BoundedLine::TooLong);
        assert_eq!(read(), BoundedLine::Line);
        assert_eq!(read(), BoundedLine::End);
        let mut input = io::Cursor::new(b"exactly10!\nnext".to_vec());
        assert_eq!(
            read_bounded_line(&mut input, &mut buffer, 10).unwrap(),
            BoundedLine::Line
        );
        assert_eq!(buffer, b"exactly10!\n");
    }
}
