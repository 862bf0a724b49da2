/** List items linking to the API reference and its errors section: the header's navigation and an error page's breadcrumb both lead there. */
export function ReferenceLinks() {
  return (
    <>
      <li>
        <a href="/docs">API reference</a>
      </li>
      <li>
        <a href="/docs#errors">Errors</a>
      </li>
    </>
  );
}
