/** Where an element is, in document coordinates (CSS pixels). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
