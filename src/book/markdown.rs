//! Scenario, clause and ruleset descriptions rendered as the Markdown they are written in
//! (CommonMark through pulldown-cmark: paragraphs, lists, `code`, emphasis, tables).
//!
//! The book's invariants hold: every text is escaped (raw HTML in a description is shown as
//! text, never passed through), and the book links only within itself, so a Markdown link
//! or image keeps only its text.

use maud::{Markup, PreEscaped};
use pulldown_cmark::{html, Event, Options, Parser, Tag, TagEnd};

/// A description as HTML: its Markdown rendered, raw HTML escaped, links and images kept as
/// their text.
pub fn markdown(text: &str) -> Markup {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(text, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { .. } | Tag::Image { .. }) => None,
        Event::End(TagEnd::Link | TagEnd::Image) => None,
        other => Some(other),
    });
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    html::push_html(&mut out, events);
    PreEscaped(out)
}

#[cfg(test)]
mod tests {
    use super::markdown;

    #[test]
    fn lists_code_and_emphasis_are_rendered() {
        let html = markdown("A *ko* at `C3`:\n\n- first\n- second\n").into_string();
        assert!(html.contains("<em>ko</em>"), "{html}");
        assert!(html.contains("<code>C3</code>"), "{html}");
        assert!(html.contains("<ul>\n<li>first</li>"), "{html}");
    }

    #[test]
    fn raw_html_is_escaped_and_links_keep_only_their_text() {
        let html =
            markdown("<script>alert(1)</script> and [a site](https://example.com)").into_string();
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("href"), "{html}");
        assert!(html.contains("a site"), "{html}");
    }
}
