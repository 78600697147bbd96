"""A form's errors in the words of the fields a person can see: their labels, never an
internal field name: no error on any page may name a field the user cannot see."""
from __future__ import annotations


def labelled_errors(form) -> list[str]:
    out = []
    for name, errors in form.errors.items():
        # A field's label is what the page shows beside it (or beside the editor that fills
        # it in, for the designer's hidden JSON fields); errors of the whole form have none.
        field = form.fields.get(name)
        label = "" if field is None else (field.label or name.replace("_", " ").capitalize())
        out += [f"{label}: {e}" if label else str(e) for e in errors]
    return out


def first_error(form) -> str:
    """One sentence naming the first problem."""
    errors = labelled_errors(form)
    return errors[0] if errors else "Something in the form is not right."
