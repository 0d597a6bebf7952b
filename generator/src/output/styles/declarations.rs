//! What a style rule's block sets, read from `cssparser`'s tokens: the names its declarations set
//! (`values_set`), or anything (`ALL`) for a block that holds a nested rule.

use super::cascade::{values_set, ALL};
use super::rules::skip_rest;
use cssparser::{Parser, Token};

/// What the declarations of the block `input` holds set, as `values_set` names it, or `ALL` for a
/// block that holds more than declarations (a `{}` block: `&:hover{…}`).
pub(super) fn properties(input: &mut Parser) -> Vec<String> {
    let mut set = Vec::new();
    // The name a declaration starts with, until its colon; whether one starts at the next token.
    let (mut name, mut starts) = (None, true);
    while let Ok(token) = input.next() {
        match token {
            Token::CurlyBracketBlock => {
                skip_rest(input);
                return vec![ALL.to_string()];
            }
            Token::Semicolon => (name, starts) = (None, true),
            Token::Ident(ident) if starts => (name, starts) = (Some(ident.to_ascii_lowercase()), false),
            Token::Colon if name.is_some() => set.extend(name.take().iter().flat_map(|name| values_set(name))),
            _ => (name, starts) = (None, false),
        }
    }
    set.sort();
    set.dedup();
    set
}
