//! A group of the query builder: how it joins its members ("all of" = `and`, "any of" =
//! `or`), whether it is negated (`not`), its members (conditions and groups, drawn
//! recursively), and buttons to add a condition or a group to it.

use super::condition_row::ConditionRow;
use crate::engine::filter::CmpOp;
use crate::engine::EdmType;
use crate::i18n::{msg, t};
use crate::ui::state::model::{Builder, Condition, Group, Join, Node};
use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;

/// A change to one member of the builder's tree, by the member's id.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    Property(String),
    Op(CmpOp),
    Type(EdmType),
    Text(String),
    Join(Join),
    Negate(bool),
    /// Adds a blank condition (with this id) to the group.
    AddCondition(u64),
    /// Adds an empty group (with this id) to the group: `or` inside an `and` and back.
    AddGroup(u64),
    Remove,
}

impl Edit {
    /// Applies the edit to member `id` of `b`'s conditions (nothing if there is none).
    pub(super) fn apply(&self, b: &mut Builder, id: u64) {
        let root = &mut b.conditions;
        if let Some(c) = root.condition_mut(id) {
            match self {
                Edit::Property(v) => c.property = v.clone(),
                Edit::Op(o) => c.op = *o,
                Edit::Type(t) => c.edm = *t,
                Edit::Text(v) => c.text = v.clone(),
                _ => {}
            }
        }
        if let Edit::Remove = self {
            root.remove(id);
            return;
        }
        if let Some(g) = root.group_mut(id) {
            match self {
                Edit::Join(j) => g.join = *j,
                Edit::Negate(n) => g.negated = *n,
                Edit::AddCondition(new) => g.members.push(Node::Condition(Condition::blank(*new))),
                Edit::AddGroup(new) => {
                    let join = match g.join {
                        Join::And => Join::Or,
                        Join::Or => Join::And,
                    };
                    g.members.push(Node::Group(Group {
                        id: *new,
                        join,
                        negated: false,
                        members: Vec::new(),
                    }))
                }
                _ => {}
            }
        }
    }
}

/// Group `id` of the builder with its members; the root group (`root`) has no `not` and
/// cannot be removed. A plain function returning `AnyView`, so it can draw itself.
pub(super) fn group_view(
    id: u64,
    builder: RwSignal<Builder>,
    edit: Callback<(u64, Edit)>,
    root: bool,
) -> AnyView {
    let get =
        move |f: &dyn Fn(&Group) -> bool| builder.with(|b| b.conditions.group(id).is_some_and(f));
    // Redrawn only when a member is added or removed, not on every keystroke inside one.
    let members = Memo::new(move |_| {
        builder.with(|b| {
            b.conditions.group(id).map_or_else(Vec::new, |g| {
                g.members
                    .iter()
                    .map(|m| (m.id(), matches!(m, Node::Group(_))))
                    .collect::<Vec<_>>()
            })
        })
    });
    let show_head = Memo::new(move |_| !root || members.with(|m| m.len() > 1));
    view! {
        <div
            class="cond-group"
            class:root-group=root
            role="group"
            data-group-id=id
            data-join=move || if get(&|g| g.join == Join::Or) { "or" } else { "and" }
        >
            // The join matters from two members on; an inner group always shows its head
            // (`not`, remove). Drawn in a closure of its own, so a query panel with no
            // conditions (the start flows) never runs this code (scripts/split.mjs).
            {move || show_head.get().then(|| head(id, builder, edit, root))}
            {move || {
                members
                    .get()
                    .into_iter()
                    .map(|(member, is_group)| {
                        if is_group {
                            group_view(member, builder, edit, false)
                        } else {
                            let edit = Callback::new(move |e: Edit| edit.run((member, e)));
                            view! { <ConditionRow id=member builder=builder edit=edit /> }.into_any()
                        }
                    })
                    .collect_view()
            }}
            {add_buttons(id, edit)}
        </div>
    }
    .into_any()
}

/// "+ Condition" and "+ Group" for group `id`; the new condition's property field takes focus.
/// Also all the query panel draws while it has no condition (`conditions`).
pub(super) fn add_buttons(id: u64, edit: Callback<(u64, Edit)>) -> AnyView {
    let workspace = Workspace::expect();
    let add = move |group: bool| {
        let new = workspace.next_id();
        if group {
            edit.run((id, Edit::AddGroup(new)));
        } else {
            edit.run((id, Edit::AddCondition(new)));
            crate::ui::kit::dom::focus_first(vec![format!(
                "[data-condition-id=\"{new}\"] .cond-property"
            )]);
        }
    };
    view! {
        <div class="group-actions">
            <button type="button" class="add-condition" on:click=move |_| add(false)>
                {t(msg::query_group_add_condition)}
            </button>
            <button type="button" class="add-group" on:click=move |_| add(true)>
                {t(msg::query_group_add)}
            </button>
        </div>
    }
    .into_any()
}

/// The builder's conditions: the root group once there is a condition, else only the buttons
/// to add one (so a query panel without conditions, as in the start flows, does not run the
/// group's code: scripts/split.mjs keeps it out of the first download).
pub(super) fn conditions(builder: RwSignal<Builder>, edit: Callback<(u64, Edit)>) -> AnyView {
    let any = Memo::new(move |_| builder.with(|b| !b.conditions.members.is_empty()));
    (move || {
        if any.get() {
            group_view(0, builder, edit, true)
        } else {
            add_buttons(0, edit)
        }
    })
    .into_any()
}

/// A group's head: `not` and remove (inner groups), and how its members join.
fn head(id: u64, builder: RwSignal<Builder>, edit: Callback<(u64, Edit)>, root: bool) -> AnyView {
    let get =
        move |f: &dyn Fn(&Group) -> bool| builder.with(|b| b.conditions.group(id).is_some_and(f));
    view! {
        <div class="group-head">
            {(!root).then(|| view! {
                <label class="group-not">
                    <input
                        type="checkbox"
                        class="group-negate"
                        prop:checked=move || get(&|g| g.negated)
                        on:change=move |ev| edit.run((id, Edit::Negate(event_target_checked(&ev))))
                    />
                    "not"
                </label>
            })}
                <select
                    class="group-join"
                    aria-label=t(msg::query_group_join)
                    prop:value=move || if get(&|g| g.join == Join::Or) { "or" } else { "and" }
                    on:change=move |ev| {
                        let join = if event_target_value(&ev) == "or" { Join::Or } else { Join::And };
                        edit.run((id, Edit::Join(join)));
                    }
                >
                    // OData's own words, as the $filter box shows them (not translated).
                    <option value="and">"and"</option>
                    <option value="or">"or"</option>
                </select>
                <button
                    type="button"
                    class="remove-group"
                    hidden=root
                    aria-label=t(msg::query_group_remove)
                    on:click=move |_| edit.run((id, Edit::Remove))
                >
                    "×"
                </button>
            </div>
    }
    .into_any()
}
