/** A column as the fit needs it: the room it takes at its narrowest (a flex column grows from its minWidth). */
export interface FitColumn {
  field: string;
  width: number;
}

/** The checkbox column of a selectable grid. */
export const CHECKBOX_COLUMN_WIDTH = 50;
/** The grid's borders and a little slack, so a fit never leaves a sliver to scroll to. */
const GRID_CHROME = 8;

/**
 * Which optional columns the table shows at first in `available` pixels: the columns always shown
 * (`fixed`: the name, the number, the checkbox and the row menu) take their room, then the optional ones
 * in `priority` order until one does not fit; it and the ones after it start hidden (the column chooser
 * still offers them). Answers the visibility model of the optional columns.
 */
export function fitColumnVisibility(available: number, fixed: readonly FitColumn[], priority: readonly FitColumn[]): Record<string, boolean> {
  let left = available - GRID_CHROME - fixed.reduce((sum, column) => sum + column.width, 0);
  const visibility: Record<string, boolean> = {};
  for (const column of priority) {
    const fits = left >= column.width;
    visibility[column.field] = fits;
    // Once one is left out, the rest are too: the table never skips a column for a less important one.
    left = fits ? left - column.width : -1;
  }
  return visibility;
}
