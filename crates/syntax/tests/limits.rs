//! Limits that keep the tree shallow enough for any thread to walk and free: an
//! expression chains at most 10,000 operators; the rest of a longer one is an error, and
//! the tree still holds every byte.

fn chain(terms: usize) -> String {
    format!("x = 1{}\n.byte 2\n", " + 1".repeat(terms - 1))
}

#[test]
fn ten_thousand_operators_are_one_expression() {
    let text = chain(10_001);
    let parse = gcn_syntax::parse(&text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
}

#[test]
fn one_more_operator_is_an_error_at_it_and_the_tree_stays_lossless() {
    let text = chain(10_002);
    let parse = gcn_syntax::parse(&text);
    let errors = parse.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    // At the 10,001st `+`: after `x = 1` and 10,000 ` + 1`.
    assert_eq!(
        usize::from(errors[0].range.start()),
        "x = 1".len() + 10_000 * " + 1".len() + 1
    );
    assert!(
        errors[0].message.contains("more than 10000 operators"),
        "{}",
        errors[0].message
    );
    assert_eq!(parse.syntax_node().to_string(), text);
    // The next statement is read as usual.
    let last = parse.syntax_node().children().last().unwrap();
    assert_eq!(last.to_string().trim(), ".byte 2");
}
