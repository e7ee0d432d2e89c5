/** Every routed page gets the title of its route. */
export interface PageProps {
  title: string;
}
