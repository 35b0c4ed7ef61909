package cli

// storeHit is a store search result's JSON shape.
type storeHit struct {
	storeJSONEntry
	Score   float64      `json:"score"`
	Explain *jsonExplain `json:"explain,omitempty"`
}
