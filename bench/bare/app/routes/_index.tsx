import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

export function loader() {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: `Row ${i + 1}`, value: (i * 37) % 101 }));
  return json({ rows });
}

export default function Index() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <table>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{r.id}</td>
            <td>{r.name}</td>
            <td>{r.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
