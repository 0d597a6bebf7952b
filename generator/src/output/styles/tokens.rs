//! The CSS tokenizer the stylesheet reader stands on: moving past strings, comments,
//! parentheses and blocks, and splitting lists at their top level.

pub(super) fn text(css: &[u8], start: usize, end: usize) -> &str {
    // Positions are at ASCII delimiters, so they are character boundaries.
    std::str::from_utf8(&css[start..end]).unwrap_or("")
}

pub(super) fn skip_space_and_comments(css: &[u8], pos: &mut usize) {
    loop {
        while css.get(*pos).is_some_and(u8::is_ascii_whitespace) {
            *pos += 1;
        }
        if css[*pos..].starts_with(b"/*") {
            *pos = find(css, *pos + 2, b"*/").map_or(css.len(), |end| end + 2);
        } else {
            return;
        }
    }
}

pub(super) fn find(css: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    css[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// Moves `pos` to the first byte outside strings, comments and parentheses for which `stop` holds
/// (or the end); returns that position.
pub(super) fn scan_to(css: &[u8], pos: &mut usize, stop: impl Fn(u8) -> bool) -> usize {
    let mut parens = 0usize;
    while *pos < css.len() {
        let c = css[*pos];
        match c {
            b'"' | b'\'' => {
                *pos += 1;
                while *pos < css.len() && css[*pos] != c {
                    if css[*pos] == b'\\' {
                        *pos += 1;
                    }
                    *pos += 1;
                }
            }
            b'/' if css.get(*pos + 1) == Some(&b'*') => {
                *pos = find(css, *pos + 2, b"*/").map_or(css.len(), |end| end + 1);
            }
            b'\\' => *pos += 1,
            b'(' => parens += 1,
            b')' if parens > 0 => parens -= 1,
            _ if parens == 0 && stop(c) => return *pos,
            _ => {}
        }
        *pos += 1;
    }
    css.len()
}

/// From just inside a block's `{` to just past its `}`, nested blocks included.
pub(super) fn skip_block(css: &[u8], pos: &mut usize) {
    let mut depth = 1;
    while depth > 0 && *pos < css.len() {
        scan_to(css, pos, |c| c == b'{' || c == b'}');
        match css.get(*pos) {
            Some(b'{') => depth += 1,
            Some(b'}') => depth -= 1,
            _ => return,
        }
        *pos += 1;
    }
}

/// `list` split at `delimiter` outside strings, parentheses and brackets.
pub(super) fn split_top_level(list: &str, delimiter: u8) -> Vec<&str> {
    let bytes = list.as_bytes();
    let (mut parts, mut start, mut pos) = (Vec::new(), 0, 0);
    while pos < bytes.len() {
        let end = scan_to(bytes, &mut pos, |c| c == delimiter || c == b'[');
        if bytes.get(end) == Some(&b'[') {
            pos = bytes[end..]
                .iter()
                .position(|&c| c == b']')
                .map_or(bytes.len(), |i| end + i + 1);
            continue;
        }
        parts.push(&list[start..end]);
        pos = end + 1;
        start = pos;
    }
    if start < list.len() {
        parts.push(&list[start..]);
    }
    parts
}
