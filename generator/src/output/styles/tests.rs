use super::cascade::*;
use super::declarations::properties;
use super::present::*;
use super::selector::*;
use super::*;

const CSS: &str = ":root{--a: 1px}body{margin:0}.card{padding:1px}.card .title,.banner{color:red}\
    .js .menu:not(.open){display:none}@media (max-width:40rem){.card{padding:0}.dialog{inset:0}}\
    @font-face{font-family:M;src:url(/m.woff2)}@keyframes spin{to{rotate:1turn}}\
    a[href^=\"http\"]{color:blue}.dialog::backdrop{opacity:.5}#top{z-index:1}\
    @supports (display:grid){.grid{display:grid}}.x\\:y{color:green}";

/// What the reader makes of `selector` for the cascade.
fn target(selector: &str) -> Target {
    read_selectors(&mut Parser::new(selector)).remove(0).1
}

fn styles() -> PageStyles {
    PageStyles::new(CSS, r#"e.classList.add("js");x="dark-mode""#)
}

#[test]
fn a_page_keeps_the_rules_its_classes_can_match_in_their_order() {
    let kept = styles()
        .for_page(r#"<body><div class="card other"><p class="title">t</p></div><ul class="menu"></ul><a href="/">a</a></body>"#, true)
        .first_paint;
    assert_eq!(
        kept,
        ":root{--a: 1px}body{margin:0}.card{padding:1px}.card .title,.banner{color:red}\
         .js .menu:not(.open){display:none}@media (max-width:40rem){.card{padding:0}}\
         @font-face{font-family:M;src:url(/m.woff2)}@keyframes spin{to{rotate:1turn}}\
         a[href^=\"http\"]{color:blue}#top{z-index:1}"
    );
}

#[test]
fn a_selector_list_is_kept_when_any_of_its_selectors_can_match() {
    let kept = styles().for_page(r#"<p class="banner">"#, true).first_paint;
    assert!(kept.contains(".card .title,.banner{color:red}"), "{kept}");
    assert!(!kept.contains(".card{"), "{kept}");
}

#[test]
fn groups_keep_only_their_matching_rules_and_vanish_when_none_match() {
    let kept = styles().for_page(r#"<div class="dialog grid x:y">"#, true).first_paint;
    assert!(kept.contains("@media (max-width:40rem){.dialog{inset:0}}"), "{kept}");
    assert!(kept.contains("@supports (display:grid){.grid{display:grid}}"), "{kept}");
    assert!(kept.contains(".dialog::backdrop{opacity:.5}"), "{kept}");
    assert!(
        kept.contains(".x\\:y{color:green}"),
        "an escaped class is matched unescaped: {kept}"
    );
    let bare = styles().for_page("<p>", true).first_paint;
    assert!(!bare.contains("@media") && !bare.contains("@supports"), "{bare}");
}

#[test]
fn the_head_scripts_classes_count_as_present() {
    let page = r#"<ul class="menu">"#;
    assert!(styles()
        .for_page(page, true)
        .first_paint
        .contains(".js .menu:not(.open){display:none}"));
    // Without the head script's "js", the page alone does not match it.
    assert!(!PageStyles::new(CSS, "")
        .for_page(page, true)
        .first_paint
        .contains(".js .menu"));
}

#[test]
fn only_class_attributes_name_classes_and_tags_name_elements() {
    let found = Present::in_page(r#"<a data-class="card" class='one  two' title="class=three"><SVG class=four></SVG>"#);
    let classes: HashSet<&str> = found.classes.into_iter().collect();
    assert_eq!(classes, HashSet::from(["one", "two", "four"]));
    let elements: HashSet<&str> = found.elements.iter().map(|e| e.as_ref()).collect();
    assert_eq!(elements, HashSet::from(["a", "svg", "html", "head", "body", "tbody"]));
}

#[test]
fn a_rule_for_elements_the_page_lacks_is_left_out() {
    let styles = PageStyles::new(
        ".article blockquote{quotes:none}.article>p{margin:1px}dialog.welcome:not([open]){display:block}\
         input[type=text],textarea{width:100%}a:hover::after{content:''}*,:before{box-sizing:border-box}",
        "",
    );
    assert_eq!(
        styles
            .for_page(r#"<main class="article"><p>text <a href="/">link</a></p></main>"#, true)
            .first_paint,
        ".article>p{margin:1px}a:hover::after{content:''}*,:before{box-sizing:border-box}"
    );
    let form = styles
        .for_page(r#"<textarea></textarea><dialog class="welcome"></dialog>"#, true)
        .first_paint;
    assert!(
        form.contains("dialog.welcome:not([open])") && form.contains("textarea{width:100%}"),
        "{form}"
    );
}

#[test]
fn a_broken_stylesheet_is_carried_as_written_and_loses_nothing_after_a_stray_brace() {
    // As in a browser, the stray `}` starts the next rule's selector (`}.b`, which matches
    // nothing there): both stylesheets carry the text as written, and `.c` is read as ever.
    let styles = PageStyles::new(".a{color:red}}.b{margin:0}.c{padding:0}", "");
    let rules = styles.for_page(r#"<p class="c">"#, true);
    assert_eq!(rules.first_paint, ".c{padding:0}");
    assert_eq!(rules.for_islands, ".a{color:red}}.b{margin:0}");
    assert_eq!(
        styles.for_page(r#"<p class="a b c">"#, true).first_paint,
        ".a{color:red}}.b{margin:0}.c{padding:0}"
    );
}

#[test]
fn statements_and_rules_the_parser_rejects_are_kept_on_every_page_as_written() {
    let css = "@import url(/x.css) print;--x:1{color:red}.a{color:blue}@layer base{.b{color:green}}";
    let rules = PageStyles::new(css, "").for_page("<p>", true);
    assert_eq!(
        rules.first_paint,
        "@import url(/x.css) print;--x:1{color:red}@layer base{.b{color:green}}"
    );
    assert_eq!(rules.for_islands, ".a{color:blue}");
}

#[test]
fn the_whole_stylesheet_comes_back_for_a_page_with_every_class() {
    let css = "a{color:red}.b{color:blue}@media print{.c{display:none}}";
    let all = PageStyles::new(css, "").for_page(r#"<a class="b c">"#, true);
    assert_eq!(all.first_paint, css);
    assert_eq!(all.for_islands, "", "nothing is left for the islands");
}

#[test]
fn the_islands_get_the_rules_left_out_in_their_order() {
    let rules = styles().for_page(r#"<div class="card"></div>"#, true);
    assert_eq!(
        rules.for_islands,
        ".card .title,.banner{color:red}.js .menu:not(.open){display:none}\
         @media (max-width:40rem){.dialog{inset:0}}a[href^=\"http\"]{color:blue}.dialog::backdrop{opacity:.5}\
         @supports (display:grid){.grid{display:grid}}.x\\:y{color:green}"
    );
    assert!(!rules.for_islands.contains("@font-face"), "{}", rules.for_islands);
}

#[test]
fn a_left_out_rule_that_an_inline_rule_after_it_competes_with_is_inlined() {
    // The islands' stylesheet comes after the inline rules. `.open` there would beat
    // `.closed` on an element an island gives both classes, where the whole stylesheet lets
    // the later `.closed` win: it is inlined, before `.closed`. So is `.x`, which `.open`
    // (inlined now) follows for `margin`.
    let styles = PageStyles::new(
        ".x{margin-top:0}.open{color:red;margin:1px}.closed{color:blue}.wide{margin:0}.a .b{margin:2px}\
         .shut{padding:0}",
        "",
    );
    let rules = styles.for_page(r#"<p class="closed a b">"#, true);
    assert_eq!(
        rules.first_paint,
        ".x{margin-top:0}.open{color:red;margin:1px}.closed{color:blue}.a .b{margin:2px}"
    );
    // `.a .b` is more specific than `.wide`: whichever comes last, it wins.
    assert_eq!(rules.for_islands, ".wide{margin:0}.shut{padding:0}");
}

#[test]
fn rules_for_other_elements_or_pseudo_elements_never_compete() {
    // Same specificity, same property, but `li` and `p` are different elements, and `::before`
    // is not the element: the left-out rules stay out.
    let styles = PageStyles::new(".menu li{color:red}.tip:before{color:red}.text p{color:blue}", "");
    let rules = styles.for_page(r#"<div class="text"><p>a</p></div>"#, true);
    assert_eq!(rules.first_paint, ".text p{color:blue}");
    assert_eq!(rules.for_islands, ".menu li{color:red}.tip:before{color:red}");
    // A rule for any element (here in a `nav`) competes with one for `p` after it.
    let styles = PageStyles::new("nav .menu{color:red}.text p{color:blue}", "");
    let rules = styles.for_page(r#"<div class="text"><p>a</p></div>"#, true);
    assert_eq!(rules.first_paint, "nav .menu{color:red}.text p{color:blue}");
}

#[test]
fn a_page_without_islands_inlines_only_what_matches_it() {
    let styles = PageStyles::new(".open{color:red}.closed{color:blue}", "");
    let rules = styles.for_page(r#"<p class="closed">"#, false);
    assert_eq!(rules.first_paint, ".closed{color:blue}");
}

#[test]
fn a_selectors_last_compound_names_its_element_and_pseudo_element() {
    let t = target(".a li:hover::before");
    assert_eq!(
        (t.element.as_deref(), t.pseudo_element.as_deref()),
        (Some("li"), Some("before"))
    );
    let t = target("ul .b:after");
    assert_eq!(
        (t.element.as_deref(), t.pseudo_element.as_deref()),
        (None, Some("after"))
    );
    let t = target("dialog.modal::backdrop");
    assert_eq!(t.element.as_deref(), Some("dialog"));
    assert!(t.pseudo_element.is_some_and(|p| p.starts_with("backdrop")));
    assert_eq!(target("li > :is(a, b)").element, None);
    assert_eq!(
        target("ul li , p").element.as_deref(),
        Some("li"),
        "space before a comma"
    );
    let parts = |s: &str| target(s).pseudo_element;
    assert_ne!(parts("::part(label)"), parts("::part(icon)"));
}

#[test]
fn specificity_counts_ids_classes_and_elements_as_browsers_do() {
    for (selector, expected) in [
        ("*", [0, 0, 0]),
        ("a", [0, 0, 1]),
        ("ul li.item>a:hover", [0, 2, 3]),
        ("#top .x[data-y]", [1, 2, 0]),
        ("a::before", [0, 0, 2]),
        ("a:after", [0, 0, 2]),
        (".a:not(.b,#c)", [1, 1, 0]),
        (":where(#x) .y", [0, 1, 0]),
        ("li:nth-child(2n+1 of .odd)", [0, 2, 1]),
        ("li:nth-child(2)", [0, 1, 1]),
        (".dialog::backdrop", [0, 1, 1]),
        ("html:has(dialog[open])", [0, 1, 2]),
        (".x\\:y", [0, 1, 0]),
    ] {
        assert_eq!(target(selector).specificity, expected, "{selector}");
    }
}

#[test]
fn declarations_compete_when_they_can_set_the_same_value() {
    let set = |block: &str| properties(&mut Parser::new(block)).join(" ");
    assert_eq!(set("margin-top:0;margin:1px"), "margin");
    assert_eq!(set("width:1px;inline-size:2px"), "width");
    assert_eq!(set("top:0;inset-inline-start:0"), "inset");
    assert_eq!(set("-webkit-appearance:none;appearance:none"), "appearance");
    assert_eq!(set("--gap:1px;gap:var(--gap)"), "--gap gap");
    assert_eq!(set("background:url(a;b.png)"), "background");
    assert_eq!(set("&:hover{color:red}"), ALL);
    assert_eq!(
        set("color:red;a:hover{color:blue}"),
        ALL,
        "a nested rule, not a declaration"
    );
    assert_eq!(set("color red;width:1px"), "width", "not a declaration");
    assert_eq!(set("all:unset"), ALL);
    // A shorthand meets each of its parts, its parts do not meet each other.
    assert!(set("font:1em/2 a").contains("line-height"));
    assert_eq!(set("font-size:1em;font-weight:600"), "font-size font-weight");
    assert_eq!(set("border-inline-start-color:red"), "border-color");
    assert_eq!(set("border-top:1px solid"), "border-color border-style border-width");
    assert_eq!(set("border-top-left-radius:1px;border-radius:2px"), "border-radius");
    assert_eq!(set("place-items:center"), "align-items justify-items");
    assert_eq!(set("display:flex;color:red"), "color display");
}
