package part

// The requests of the list pane (tui/list).
type (
	// Selected says the list's selection moved: the root shows the entry
	// now selected (the preview, the card's lines).
	Selected struct{}
)

func (Selected) isRequest() {}
