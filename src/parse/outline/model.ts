/** What the outline engine makes of a markdown body: the layer outline rules read. (Filled in with the engine.) */
export interface OutlineModel {
  readonly kind: 'outline';
}
