# (placeholder: filled in by the area's owner)
